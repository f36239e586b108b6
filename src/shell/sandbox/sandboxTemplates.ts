// Sandboxed commands without the per-call wrap. The sandbox runtime's wrap (bubblewrap's command
// line: a `which`, a ripgrep scan for protected files, a walk of read-deny globs, dozens of file
// checks) costs 20-60 ms a command. It depends on the policy and on the disk, not on the command, so
// a template is wrapped once around a fixed command that runs the script passed in the environment,
// and reused for as long as everything the wrap read is unchanged (sandboxFingerprint.ts, checked
// before every use, in well under a millisecond). Anything that cannot be vouched for is wrapped anew.
//
// Mount points: bubblewrap makes an empty file or folder on the host for each deny path that does not
// exist (so that nothing can create it), and the runtime removes them only when its count of wraps
// drops to zero. A template is one wrap for the runtime, released when the template is retired and
// idle; the mount points each run leaves are removed here when no sandboxed command is running.
import { lstatSync, readdirSync, rmdirSync, type Stats, unlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename } from "node:path";
import {
  addChains,
  addMountSources,
  type Fingerprint,
  fingerprintHolds,
  takeFingerprint,
} from "./sandboxFingerprint.ts";

/** The variable that carries the script into the sandbox; unset before the script runs. */
export const SCRIPT_ENV = "KEEL_SANDBOX_SCRIPT";

/**
 * With the network behind the runtime's proxy, its two listeners inside the sandbox (HTTP on 3128, SOCKS
 * on 1080: socat, started in the background just before this command) may not listen yet, and a
 * command's first connection would be refused. Usually they already listen: one connection to each
 * (bash's /dev/tcp, opened and closed at once, ~0.2 ms) shows it. Otherwise wait, up to about 5 s, until
 * the sandbox's own /proc/net/tcp lists both listening (0C38, 0438), with bash builtins and `sleep` only:
 * reading that file costs ~4 ms (the kernel walks its whole TCP table), too much for every command. On
 * a busy machine socat can take seconds to start; past the wait the command runs anyway.
 */
const WAIT_FOR_PROXY = [
  'case "$HTTP_PROXY" in *localhost:3128*)',
  "{ { exec {__keel_f}<>/dev/tcp/127.0.0.1/3128 && exec {__keel_f}>&- &&",
  "exec {__keel_f}<>/dev/tcp/127.0.0.1/1080 && exec {__keel_f}>&-; } 2>/dev/null; } ||",
  "{ __keel_n=0; while [ $__keel_n -lt 500 ]; do __keel_l=0;",
  "while read -r __keel_a __keel_b __keel_c __keel_d __keel_r; do",
  'case "$__keel_b $__keel_c $__keel_d" in *":0C38 00000000:0000 0A"|*":0438 00000000:0000 0A") __keel_l=$((__keel_l+1));; esac;',
  "done </proc/net/tcp 2>/dev/null;",
  "[ $__keel_l -ge 2 ] && break; __keel_n=$((__keel_n+1)); sleep 0.01; done; };;",
  "esac;",
].join(" ");

/**
 * What a template runs: the script from the environment, by the shell the runtime resolved (`$0`),
 * exactly as `bash -c script` runs it (line numbers, `$0`, syntax errors), the variable gone first;
 * once the proxy listens, when there is one (WAIT_FOR_PROXY).
 */
export const TEMPLATE_COMMAND = `${WAIT_FOR_PROXY} __keel_script=$${SCRIPT_ENV}; unset ${SCRIPT_ENV}; exec "$0" -c "$__keel_script"`;

/** Wraps a command for the sandbox: the runtime's argv for it. */
export type WrapCommand = (command: string) => Promise<{ argv: string[] }>;

export interface TemplateSource {
  /** Everything besides the disk the wrap depends on (policy, cwd, PATH, runtime session). */
  key: string;
  /** Paths the policy names; their components are watched. */
  chains: string[];
  /** Folders read-deny globs are expanded in. */
  globRoots: ReadonlyArray<{ dir: string; depth: number }>;
  wrap: WrapCommand;
  /** Tells the runtime one wrap is done with (its cleanupAfterCommand). */
  releaseWrap: () => void;
}

interface Template {
  key: string;
  argv: string[];
  /** Undefined for a one-off: used once, never reused. */
  fingerprint: Fingerprint | undefined;
  /** Where bubblewrap makes mount points on the host, deepest first. */
  placeholders: string[];
  users: number;
  retired: boolean;
  /** Runtime session the wrap belongs to; a reset session owes it nothing. */
  generation: number;
}

/** Reusable templates by key: a few, for processes that serve sessions under different policies. */
const current = new Map<string, Template>();
const MAX_TEMPLATES = 4;
/** Wraps under way by key: commands that start together share one. */
const building = new Map<string, Promise<Template>>();
/** Templates the runtime still counts (not yet released to it). */
const live = new Set<Template>();
/** Sandboxed commands running now, in every template. */
let running = 0;
/** Where runs since the last cleanup may have left mount points. */
const leftBehind = new Set<string>();
let generation = 0;

/** The words of bubblewrap's command line up to `--` (the runtime quotes POSIX-style), or undefined. */
export function bwrapWords(commandLine: string): string[] | undefined {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < commandLine.length; i++) {
    const char = commandLine[i]!;
    if (char === "'") {
      const end = commandLine.indexOf("'", i + 1);
      if (end === -1) return undefined;
      word += commandLine.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (char === '"') {
      let j = i + 1;
      for (; j < commandLine.length && commandLine[j] !== '"'; j++) {
        if (commandLine[j] === "\\" && /["\\$`]/.test(commandLine[j + 1] ?? "")) j++;
        word += commandLine[j];
      }
      if (j >= commandLine.length) return undefined;
      inWord = true;
      i = j;
    } else if (char === "\\") {
      word += commandLine[++i] ?? "";
      inWord = true;
    } else if (/\s/.test(char)) {
      if (!inWord) continue;
      if (word === "--") break;
      words.push(word);
      word = "";
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  return words.length > 0 && basename(words[0]!) === "bwrap" ? words : undefined;
}

/** The file bubblewrap makes as a mount point: empty, without write permission, one link. */
function isMountPointFile(stats: Stats): boolean {
  return stats.isFile() && stats.size === 0 && (stats.mode & 0o222) === 0 && stats.nlink === 1;
}

function exists(path: string): "absent" | "placeholder-like" | "present" {
  try {
    return isMountPointFile(lstatSync(path)) ? "placeholder-like" : "present";
  } catch {
    return "absent";
  }
}

const MOUNT_OPTIONS = new Set(["--bind", "--ro-bind", "--dev-bind", "--bind-try", "--ro-bind-try"]);

/** Folders bound somewhere else than where they are (the runtime's empty folder for placeholders). */
function mountSourcesOf(words: readonly string[]): string[] {
  const sources: string[] = [];
  for (let i = 1; i + 2 < words.length; i++) {
    if (!MOUNT_OPTIONS.has(words[i]!)) continue;
    const [source, destination] = [words[i + 1]!, words[i + 2]!];
    if (source.startsWith("/") && source !== destination && !source.startsWith("/dev/")) sources.push(source);
  }
  return sources;
}

/** Mount destinations bubblewrap will have to create on the host: absent now (or left by an earlier run). */
function placeholdersOf(words: readonly string[]): string[] {
  const found = new Set<string>();
  for (let i = 1; i < words.length; i++) {
    const option = words[i]!;
    const destination = MOUNT_OPTIONS.has(option)
      ? words[i + 2]
      : option === "--tmpfs"
        ? words[i + 1]
        : undefined;
    if (destination?.startsWith("/") && exists(destination) !== "present") found.add(destination);
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** Where running this wrapped argv makes bubblewrap create mount points on the host (deepest first). */
export function mountPointsToCreate(argv: readonly string[]): string[] {
  const words = argv.length === 3 ? bwrapWords(argv[2]!) : undefined;
  return words ? placeholdersOf(words) : [];
}

/** Removes a mount point bubblewrap left, if it is still what bubblewrap makes: empty, unwritable file or empty folder. */
export function removePlaceholder(path: string): void {
  try {
    const stats = lstatSync(path);
    if (isMountPointFile(stats)) unlinkSync(path);
    else if (stats.isDirectory() && readdirSync(path).length === 0) rmdirSync(path);
  } catch {
    // Gone already, or not ours to remove.
  }
}

/** While sandboxes run, their mount points may stand where the wrap saw nothing. */
function mayBePlaceholder(path: string): boolean {
  if (running === 0 || !leftBehind.has(path)) return false;
  if (exists(path) === "placeholder-like") return true;
  try {
    return lstatSync(path).isDirectory() && readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

/** Once nothing runs: takes away the mount points runs left (deepest first, so folders are empty by then). */
function removeLeftBehind(): void {
  for (const path of [...leftBehind].sort((a, b) => b.length - a.length)) removePlaceholder(path);
  leftBehind.clear();
}

function releaseToRuntime(template: Template, source: Pick<TemplateSource, "releaseWrap">): void {
  if (!live.delete(template)) return;
  if (template.generation === generation) source.releaseWrap();
}

function retire(template: Template, source: Pick<TemplateSource, "releaseWrap">): void {
  template.retired = true;
  if (current.get(template.key) === template) current.delete(template.key);
  if (template.users === 0) releaseToRuntime(template, source);
}

/** Keeps `template` for reuse, retiring the least recently made one beyond the limit. */
function keep(template: Template, source: TemplateSource): void {
  current.set(template.key, template);
  for (const [, oldest] of current) {
    if (current.size <= MAX_TEMPLATES) break;
    retire(oldest, source);
  }
}

async function build(source: TemplateSource): Promise<Template> {
  const inputs = { chains: source.chains, scanRoot: process.cwd(), globRoots: source.globRoots };
  const before = takeFingerprint(inputs);
  const { argv } = await source.wrap(TEMPLATE_COMMAND);
  const words = argv.length === 3 ? bwrapWords(argv[2]!) : undefined;
  const template: Template = {
    key: source.key,
    argv,
    fingerprint: undefined,
    placeholders: words ? placeholdersOf(words) : [],
    users: 0,
    retired: false,
    generation,
  };
  live.add(template);
  // Reusable only when the wrap's inputs held still while it ran and its mounts can be read back.
  if (before && words && fingerprintHolds(before, mayBePlaceholder)) {
    addChains(
      before,
      words.filter((word) => word.startsWith("/")),
    );
    // What a bound folder holds is what the sandbox sees there: it must stay as it was (empty).
    if (addMountSources(before, mountSourcesOf(words))) template.fingerprint = before;
  }
  return template;
}

function reusable(template: Template | undefined): template is Template {
  return (
    template !== undefined &&
    !template.retired &&
    template.generation === generation &&
    template.fingerprint !== undefined &&
    fingerprintHolds(template.fingerprint, mayBePlaceholder)
  );
}

/** A command in the sandbox: argv and the variables that carry the script; `release` when it has exited. */
export interface TemplatedCommand {
  argv: string[];
  env: NodeJS.ProcessEnv;
  release: () => void;
}

/** The template for this source: the kept one while it holds, one being made, or a new one. */
async function templateFor(source: TemplateSource): Promise<Template> {
  const kept = current.get(source.key);
  if (reusable(kept)) return kept;
  if (kept) retire(kept, source);
  let pending = building.get(source.key);
  if (!pending) {
    pending = build(source).finally(() => building.delete(source.key));
    building.set(source.key, pending);
    const made = await pending;
    if (made.fingerprint && made.generation === generation) keep(made, source);
    return made;
  }
  // Commands that start together share one wrap (made for this very policy, a moment ago).
  return pending;
}

/** Runs `script` through the kept template for its policy when it still holds, else through a new one. */
export async function templatedCommand(source: TemplateSource, script: string): Promise<TemplatedCommand> {
  const template = await templateFor(source);
  template.users++;
  running++;
  for (const path of template.placeholders) leftBehind.add(path);
  let released = false;
  return {
    argv: template.argv,
    env: { ...process.env, [SCRIPT_ENV]: script },
    release: () => {
      if (released) return;
      released = true;
      template.users--;
      running--;
      // Mount points first: releasing the last wrap lets the runtime remove what it tracks too.
      if (running === 0) removeLeftBehind();
      if (!template.fingerprint) retire(template, source);
      else if (template.retired && template.users === 0) releaseToRuntime(template, source);
    },
  };
}

/** Forgets every template (the runtime was reset: its mount points and count are gone). */
export function forgetTemplates(): void {
  generation++;
  for (const template of live) template.retired = true;
  live.clear();
  leftBehind.clear();
  current.clear();
}

/** Variables the runtime's Linux wrap reads (sandbox-runtime 0.0.78): PATH finds bash, the rest are baked in. */
const WRAP_ENV = ["PATH", "JAVA_TOOL_OPTIONS", "GIT_CONFIG_COUNT", "CLAUDE_CODE_TMPDIR", "CLAUDE_TMPDIR"];

/** What a template's key must include besides the policy: the process state the runtime reads. */
export function environmentKey(): string {
  return JSON.stringify([
    process.cwd(),
    homedir(),
    tmpdir(),
    WRAP_ENV.map((name) => process.env[name] ?? null),
  ]);
}
