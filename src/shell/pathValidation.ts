// Path arguments and redirect targets, resolved against every directory the shell may be in at that
// point (`cd x && ...` adds x; a failed cd keeps the old one) and through symlinks: outside the
// working directories asks; writes to protected paths and removals of / or ~ ask in every mode.

import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, resolve } from "node:path";
import {
  danglingLinkTarget,
  isInWorkingDirectories,
  isPathWithin,
  lstatOrUndefined,
  protectedPathReason,
  remembered,
  resolveSymlinks,
  systemFolderOf,
} from "../permissions/paths.ts";
import { type ToolPermissionContext, workingDirectories } from "../tool/context.ts";
import type { CommandView } from "./commandView.ts";
import type { Redirect } from "./extract.ts";
import { readGitGlobals } from "./gitSpec.ts";
import { REMOVERS } from "./programs.ts";
import type { Classification, PathUse } from "./readOnly.ts";
import { criticalRemovalReason } from "./security/dangerousRemoval.ts";
import type { Word } from "./words.ts";

export interface Finding {
  check: string;
  reason: string;
  safety: boolean;
}

const HARMLESS_DEVICES = /^\/dev\/(null|stdin|stdout|stderr|tty|zero|random|urandom|fd\/[0-9]+)$/;
const WRITE_REDIRECTS = new Set([">", ">>", "&>", "&>>", ">|", "<>", ">&"]);
const READ_REDIRECTS = new Set(["<", "<&"]);
const MAX_GLOB_ENTRIES = 2_000;
const MAX_FOLDERS = 8;

interface Scope {
  context: ToolPermissionContext;
  /** Directories the shell may be in; empty after `cd -` and the like (unknown). */
  cwds: string[];
  cwdUnknown: boolean;
  /** Report only findings that ask in every mode (used on commands that are already too complex). */
  safetyOnly: boolean;
  findings: Finding[];
  /** Paths already judged (same access, path and base): checks touch the disk, so once is enough. */
  checked: Set<string>;
  /** Disk-backed answers per absolute path, asked once per analysis (scripts repeat the same paths). */
  disk: DiskMemo;
}

interface DiskMemo {
  inside: Map<string, boolean>;
  protectedReason: Map<string, string | undefined>;
  dangling: Map<string, string | undefined>;
  /** Folder -> the repository-like folder git would find from it without a .git (see plantedRepository). */
  planted: Map<string, string | undefined>;
}

/** Inside the working directories; `abs` is absolute. */
function isInside(abs: string, scope: Scope): boolean {
  return remembered(scope.disk.inside, abs, () => isInWorkingDirectories(abs, scope.context));
}

/** protectedPathReason for an absolute path (the base only matters for relative ones). */
function protectedReasonOf(abs: string, base: string, scope: Scope): string | undefined {
  return remembered(scope.disk.protectedReason, abs, () => protectedPathReason(abs, base));
}

function danglingTargetOf(abs: string, scope: Scope): string | undefined {
  return remembered(scope.disk.dangling, abs, () => danglingLinkTarget(abs));
}

function add(scope: Scope, check: string, reason: string, safety: boolean): void {
  if (scope.safetyOnly && !safety) return;
  if (scope.findings.some((finding) => finding.check === check && finding.reason === reason)) return;
  scope.findings.push({ check, reason, safety });
}

/** `~` and `~/x` become the home folder; `~user` is unknown. */
function expandTilde(value: string, word: Word | undefined): string | undefined {
  const tilde = word ? word.tilde : value.startsWith("~");
  if (!tilde) return value;
  if (value === "~" || value.startsWith("~/")) return homedir() + value.slice(1);
  return undefined;
}

/** For a glob word: the folder its matches live in, or why it cannot be judged. */
function globBase(written: string, startsWithGlob: boolean): { base: string } | { problem: string } {
  // `*/` matches folders: judge it like `*`.
  const value = written.replace(/\/+$/, "");
  const first = value.search(/[*?[]/);
  const slash = value.lastIndexOf("/", first);
  if (value.indexOf("/", first) !== -1)
    return { problem: `the glob ${value} matches folders; name the folder` };
  const segment = value.slice(slash + 1);
  if (segment.startsWith(".")) return { problem: `the glob ${value} can match .. (parent folder)` };
  if (startsWithGlob && slash === -1) return { base: "." };
  return { base: slash === -1 ? "." : value.slice(0, slash) || "/" };
}

/** A regex for one glob segment as bash matches it (no dotglob: a leading dot must be literal). */
function segmentRegex(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    const end = char === "[" ? pattern.indexOf("]", i + 2) : -1;
    if (char === "*") source += ".*";
    else if (char === "?") source += ".";
    else if (end !== -1) {
      source += `[${pattern
        .slice(i + 1, end)
        .replace(/^[!^]/, "^")
        .replace(/\\/g, "\\\\")}]`;
      i = end;
    } else source += char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "s");
}

/** Entries of a globbed folder that a match could turn into an option or a way out through a symlink. */
function globEntriesProblem(
  folder: string,
  value: string,
  scope: Scope,
  optionRisk: boolean,
): string | undefined {
  const trimmed = value.replace(/\/+$/, "");
  const pattern = segmentRegex(trimmed.slice(trimmed.lastIndexOf("/") + 1));
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return undefined;
  }
  if (entries.length > MAX_GLOB_ENTRIES)
    return `the glob ${value} covers a folder with over ${MAX_GLOB_ENTRIES} entries`;
  for (const entry of entries) {
    if (entry.name.startsWith(".") || !pattern.test(entry.name)) continue;
    if (optionRisk && entry.name.startsWith("-"))
      return `the glob ${value} would match ${entry.name}, which reads as an option`;
    if (!entry.isSymbolicLink()) continue;
    const target = resolveSymlinks(resolve(folder, entry.name));
    if (!isInside(target, scope))
      return `the glob ${value} would follow the link ${entry.name} out of the working directories`;
  }
  return undefined;
}

/** A folder laid out like a git directory (HEAD plus objects/, refs/ or commondir), as bare-repository discovery accepts. */
function looksLikeGitDir(dir: string): boolean {
  if (!lstatOrUndefined(resolve(dir, "HEAD"))) return false;
  return ["objects", "refs", "commondir"].some(
    (entry) => lstatOrUndefined(resolve(dir, entry)) !== undefined,
  );
}

/**
 * Where git's repository discovery from `start` lands when it is not a .git folder: walking up, the
 * first folder with a .git entry ends the search; a folder that itself looks like a git directory
 * before that is taken as a bare repository, whose config (core.fsmonitor, diff.external, textconv
 * drivers...) git obeys. Plain file writes can plant one, so a read-only git there is not safe.
 */
function plantedRepository(start: string, scope: Scope): string | undefined {
  return remembered(scope.disk.planted, start, () => {
    for (let dir = start; ; dir = dirname(dir)) {
      if (basename(dir) === ".git" || lstatOrUndefined(resolve(dir, ".git"))) return undefined;
      if (looksLikeGitDir(dir)) return dir;
      if (dirname(dir) === dir) return undefined;
    }
  });
}

/** git run against a repository that is not a .git folder (--git-dir=x, or a bare-looking folder). */
function checkGitRepository(view: CommandView, scope: Scope): void {
  if (view.argv[0] !== "git") return;
  const globals = readGitGlobals(view.argv);
  const hops: string[] = [];
  for (const global of globals.paths) {
    if (global.option === "--git-dir") {
      if (basename(global.value.replace(/\/+$/, "")) === ".git") return;
      add(
        scope,
        "git-repository",
        `git --git-dir=${global.value} uses a repository that is not a .git folder`,
        false,
      );
      return;
    }
    if (global.option === "-C") hops.push(global.value);
  }
  // `~` and dynamic folders are judged (and asked about) by the path checks.
  if (hops.some((hop) => hop.startsWith("~"))) return;
  for (const cwd of scope.cwds) {
    const found = plantedRepository(
      hops.reduce((dir, hop) => resolve(dir, hop), cwd),
      scope,
    );
    if (found)
      add(
        scope,
        "git-repository",
        `git would use ${found} as a bare repository (it holds HEAD, objects or refs but is not a .git folder)`,
        false,
      );
  }
}

/** Removing a working directory itself (or a folder holding one) is never a routine edit. */
function checkWorkingDirRemoval(abs: string, commandName: string, scope: Scope): void {
  const roots = workingDirectories(scope.context).map((dir) => resolve(dir));
  if (roots.some((root) => isPathWithin(root, abs)))
    add(scope, "working-dir-removal", `${commandName} would remove the working directory ${abs}`, false);
}

function checkAbsolute(
  given: string,
  base: string,
  access: PathUse["access"],
  commandName: string,
  scope: Scope,
): void {
  if (HARMLESS_DEVICES.test(given)) return;
  const key = `${access}\0${commandName}\0${given}\0${base}`;
  if (scope.checked.has(key)) return;
  scope.checked.add(key);
  const dangling = danglingTargetOf(given, scope);
  if (dangling !== undefined && dangling !== given) checkAbsolute(dangling, base, access, commandName, scope);
  const abs = given;
  if (access === "write") {
    const protectedReason = protectedReasonOf(abs, base, scope);
    if (protectedReason) add(scope, "protected-path", `writes ${protectedReason}`, true);
    if (REMOVERS.has(commandName)) {
      const critical = criticalRemovalReason(abs);
      if (critical) add(scope, "dangerous-removal", critical, true);
    }
  }
  if (!isInside(abs, scope)) {
    const verb = access === "write" ? "writes" : access === "cd" ? "changes directory to" : "reads";
    add(
      scope,
      "path-outside-working-dirs",
      `${commandName} ${verb} ${abs}, outside the working directories`,
      false,
    );
  }
}

function checkPath(
  value: string,
  word: Word | undefined,
  access: PathUse["access"],
  commandName: string,
  scope: Scope,
  relativeTo?: string,
): void {
  if (value === "" || value === "-") return;
  if (word && (word.dynamic || word.unknown || word.brace)) {
    add(scope, "dynamic-path", `${commandName}: the path ${word.text} is only known at run time`, false);
    return;
  }
  let path = expandTilde(value, word);
  if (path === undefined) {
    add(scope, "tilde-user", `${value} names another user's home folder`, false);
    return;
  }
  if (!path.startsWith("/") && scope.cwdUnknown) {
    add(
      scope,
      "cwd-unknown",
      `${commandName} uses the relative path ${value} after a cd the analyzer cannot follow`,
      false,
    );
    return;
  }
  const glob = word?.glob ?? false;
  let optionRisk = false;
  if (glob) {
    const found = globBase(path, /^[*?[]/.test(path));
    if ("problem" in found) {
      add(scope, "glob-path", found.problem, false);
      return;
    }
    optionRisk = /^[*?[]/.test(path);
    path = found.base;
  }
  for (const cwd of scope.cwds) {
    const base = relativeTo ? resolve(cwd, relativeTo) : cwd;
    const abs = resolve(base, path);
    checkAbsolute(abs, base, access, commandName, scope);
    if (!glob && access === "write" && REMOVERS.has(commandName))
      checkWorkingDirRemoval(abs, commandName, scope);
    // The kernel resolves `link/..` physically (to the link target's parent), not lexically.
    const physical = /(^|\/)\.\.(\/|$)/.test(path)
      ? resolveSymlinks(path.startsWith("/") ? path : `${base}/${path}`)
      : abs;
    if (physical !== abs) checkAbsolute(physical, base, access, commandName, scope);
    if (glob) {
      const problem = globEntriesProblem(abs, value, scope, optionRisk);
      if (problem) add(scope, "glob-path", problem, false);
    }
  }
}

export function redirectAccess(redirect: Redirect): "read" | "write" | undefined {
  const target = redirect.target?.value ?? "";
  if (redirect.op === ">&" || redirect.op === "<&") {
    if (/^[0-9]+-?$|^-$/.test(target)) return undefined;
  }
  if (WRITE_REDIRECTS.has(redirect.op)) return "write";
  if (READ_REDIRECTS.has(redirect.op)) return "read";
  return undefined;
}

/** Arguments of a command the analyzer does not know: any that names a protected path is a write risk. */
function checkUnknownArguments(view: CommandView, scope: Scope): void {
  const written = view.written.simple.argv;
  for (let i = 1; i < written.length; i++) {
    const arg = written[i] as string;
    const candidates = arg.startsWith("-")
      ? arg.includes("=")
        ? [arg.slice(arg.indexOf("=") + 1)]
        : []
      : [arg];
    for (const candidate of candidates) {
      const expanded = expandTilde(candidate, view.written.words[i]);
      if (expanded === undefined || expanded === "") continue;
      for (const cwd of scope.cwds) {
        const abs = resolve(cwd, expanded);
        if (systemFolderOf(abs) || HARMLESS_DEVICES.test(abs)) continue;
        const reason = protectedReasonOf(abs, cwd, scope);
        if (reason) add(scope, "protected-path", `${written[0]} may write ${reason}`, true);
      }
    }
  }
}

/** Where a cd-like command goes from `cwd`: a folder, "unknown", or undefined when it does not move. */
function cdDestination(
  view: CommandView,
  classification: Classification,
  cwd: string,
): string | "unknown" | undefined {
  const name = view.argv[0];
  if (name !== "cd" && name !== "pushd" && name !== "popd") return undefined;
  const target = classification.paths[0]?.value ?? view.argv.slice(1).find((arg) => !arg.startsWith("-"));
  if (name === "popd" || target === "-" || (target === undefined && name === "pushd")) return "unknown";
  const destination = target === undefined ? homedir() : expandTilde(target, view.words[1]);
  return destination === undefined ? "unknown" : resolve(cwd, destination);
}

export interface ValidationInput {
  view: CommandView;
  classification: Classification;
}

/** Where the shell may be, and whether the last command may have succeeded there. */
interface ShellState {
  cwd: string;
  ok: boolean;
}

function runsAfter(operator: string | undefined, state: ShellState): boolean {
  if (operator === "&&") return state.ok;
  if (operator === "||") return !state.ok;
  return true;
}

/** Each (cwd, ok) pair once, in order of first appearance; keyed by folder to avoid building strings. */
function dedupe(states: ShellState[]): ShellState[] {
  const seen = new Map<string, number>();
  const kept: ShellState[] = [];
  for (const state of states) {
    const bit = state.ok ? 1 : 2;
    const mask = seen.get(state.cwd) ?? 0;
    if (mask & bit) continue;
    seen.set(state.cwd, mask | bit);
    kept.push(state);
  }
  return kept;
}

function validateCommand(view: CommandView, classification: Classification, scope: Scope): void {
  const name = view.argv[0] ?? view.written.simple.argv[0] ?? "";
  for (const use of classification.paths) {
    if (use.access === "cd") continue;
    const word = use.index === undefined ? undefined : view.words[use.index];
    checkPath(use.value, word, use.access, name, scope, use.base);
  }
  if (classification.kind === "other") checkUnknownArguments(view, scope);
  checkGitRepository(view, scope);
  for (const redirect of view.redirects) {
    const access = redirectAccess(redirect);
    if (access) checkPath(redirect.target?.value ?? "", redirect.target, access, name || "redirect", scope);
  }
}

/**
 * Validates the paths of commands in order. The shell's folder is followed through cd together with
 * the operators: after `cd x && a`, a runs in x; after `cd x; a`, in x or (if cd failed) where it was.
 */
export function validatePaths(
  commands: readonly ValidationInput[],
  cwd: string,
  context: ToolPermissionContext,
  options: { safetyOnly?: boolean; operators?: readonly string[] } = {},
): Finding[] {
  const scope: Scope = {
    context,
    cwds: [cwd],
    cwdUnknown: false,
    safetyOnly: options.safetyOnly ?? false,
    findings: [],
    checked: new Set(),
    disk: { inside: new Map(), protectedReason: new Map(), dangling: new Map(), planted: new Map() },
  };
  if (!isInWorkingDirectories(cwd, context))
    add(scope, "path-outside-working-dirs", `the shell is in ${cwd}, outside the working directories`, false);
  let states: ShellState[] = [{ cwd, ok: true }];
  commands.forEach(({ view, classification }, index) => {
    const operator = index === 0 ? undefined : (options.operators?.[index - 1] ?? ";");
    const running = states.filter((state) => runsAfter(operator, state));
    const next = states.filter((state) => !runsAfter(operator, state));
    scope.cwds = [...new Set(running.map((state) => state.cwd))];
    validateCommand(view, classification, scope);
    for (const state of running) {
      const destination = cdDestination(view, classification, state.cwd);
      if (destination === "unknown") {
        scope.cwdUnknown = true;
        add(
          scope,
          "cwd-unknown",
          `${view.argv.join(" ").slice(0, 40)} goes to a folder the analyzer cannot know`,
          false,
        );
      } else if (destination !== undefined) {
        checkAbsolute(destination, state.cwd, "cd", view.argv[0] ?? "cd", scope);
        next.push({ cwd: destination, ok: true });
      } else next.push({ cwd: state.cwd, ok: true });
      next.push({ cwd: state.cwd, ok: false });
    }
    states = dedupe(next);
    if (new Set(states.map((state) => state.cwd)).size > MAX_FOLDERS) {
      scope.cwdUnknown = true;
      add(
        scope,
        "cwd-unknown",
        `the command may be in more than ${MAX_FOLDERS} folders after its cd commands`,
        false,
      );
      states = [{ cwd, ok: true }];
    }
  });
  return scope.findings;
}

/** True when a redirect writes a real file (not /dev/null or a file descriptor). */
export function writesThroughRedirect(view: CommandView): boolean {
  return view.redirects.some(
    (redirect) =>
      redirectAccess(redirect) === "write" && !HARMLESS_DEVICES.test(redirect.target?.value ?? ""),
  );
}
