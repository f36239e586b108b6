// The forms a deny or ask rule is tried on: the command as written, then with every wrapper (sudo,
// env, timeout, xargs, nohup, busybox...) and VAR= prefix removed in turn, leniently (any options
// skipped), with the command name normalised (/bin/rm -> rm, zsh =curl -> curl) and, for tools with
// global options (git -C x push), also without those options.
import { braceExpand } from "./expand.ts";
import { readGitGlobals } from "./gitSpec.ts";
import type { ExtractedCommand } from "./grammar/extractedCommand.ts";
import { words } from "./options.ts";
import { subcommandAliases } from "./subcommandAliases.ts";

/** Option words that take a separate value, per wrapper. */
const LENIENT_VALUED: Record<string, readonly string[]> = {
  timeout: ["-s", "-k", "--signal", "--kill-after"],
  time: ["-f", "-o", "--format", "--output"],
  nice: ["-n", "--adjustment"],
  stdbuf: ["-i", "-o", "-e"],
  ionice: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"],
  env: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"],
  sudo: words("-u -g -h -p -C -D -r -t -U --user --group --host --prompt --chdir"),
  doas: ["-u", "-C"],
  xargs: words("-a -d -E -I -L -n -P -s --arg-file --delimiter --max-args --max-procs"),
  watch: ["-n", "-d", "--interval", "--differences"],
  exec: ["-a"],
  setsid: [],
  chroot: ["--userspec", "--groups"],
  unbuffer: [],
  nohup: [],
  command: [],
  builtin: [],
  noglob: [],
  nocorrect: [],
  coproc: [],
  busybox: [],
  toybox: [],
  toolbox: [],
  bsdbox: [],
  coreutils: [],
  caffeinate: ["-t", "-w"],
  flock: ["-w", "-E", "--timeout", "--conflict-exit-code"],
  firejail: [],
  proxychains: ["-f"],
  proxychains4: ["-f"],
  torsocks: [],
  runuser: ["-u", "-g", "--user", "--group"],
  pkexec: ["--user"],
  "systemd-run": ["-p", "-u", "--unit", "--property", "--uid", "--gid"],
  unshare: [],
  nsenter: ["-t", "--target"],
  strace: ["-o", "-e", "-p", "-s", "-u", "-E"],
  ltrace: ["-o", "-e", "-p", "-s", "-u"],
  valgrind: [],
  rlwrap: [],
  fakeroot: [],
  setpriv: [],
  arch: [],
  xcrun: ["--sdk", "--toolchain"],
  chrt: [],
  taskset: [],
  faketime: [],
  runcon: [],
  repeat: [],
  parallel: ["-j", "-S", "--jobs"],
  "sandbox-exec": ["-f", "-n", "-p"],
  dbus_launch: [],
  // Launchers that run the rest of their words as a command.
  eatmydata: [],
  nocache: [],
  prlimit: ["-p", "--pid"],
  numactl: words("-N -m -C -p -i --cpunodebind --membind --physcpubind --preferred --interleave"),
  chronic: [],
  "ssh-agent": ["-a", "-E", "-t"],
  "dbus-run-session": ["--config-file", "--dbus-daemon"],
  "xvfb-run": words("-n -s -f -e -p --server-num --server-args --auth-file --error-file"),
  npx: ["-p", "--package", "-c", "--call"],
  bunx: ["-p", "--package"],
  uvx: ["--from", "--with", "--python"],
  pipx: [],
  tini: [],
  "dumb-init": [],
  catchsegv: [],
  chpst: ["-u", "-U", "-e", "-/", "-n", "-l", "-L", "-m", "-d", "-o", "-p", "-f", "-c", "-r", "-t"],
  winpty: [],
  "cross-env": [],
  "env-cmd": ["-f", "-e", "--file", "--environments"],
  dotenv: ["-e", "-f", "-c", "-v"],
  "flatpak-spawn": [],
  "with-contenv": [],
};

/** Subcommands that run the rest of their words as a command: `npm exec -- rm`, `uv run rm`, `direnv exec . rm`. */
const LAUNCH_SUBCOMMANDS: Record<string, { sub: readonly string[]; leading?: number }> = {
  npm: { sub: ["exec", "x"] },
  pnpm: { sub: ["exec", "dlx", "x"] },
  yarn: { sub: ["exec", "dlx"] },
  bun: { sub: ["x", "run"] },
  uv: { sub: ["run", "tool"] },
  poetry: { sub: ["run"] },
  pipenv: { sub: ["run"] },
  pdm: { sub: ["run"] },
  hatch: { sub: ["run"] },
  bundle: { sub: ["exec"] },
  conda: { sub: ["run"] },
  mamba: { sub: ["run"] },
  mise: { sub: ["exec", "x"] },
  asdf: { sub: ["exec"] },
  rbenv: { sub: ["exec"] },
  pyenv: { sub: ["exec"] },
  nvm: { sub: ["exec", "run"] },
  volta: { sub: ["run"] },
  direnv: { sub: ["exec"], leading: 1 },
  doppler: { sub: ["run"] },
  op: { sub: ["run"] },
  nix: { sub: ["shell", "develop", "run"] },
  devbox: { sub: ["run"] },
};

/**
 * `npm exec -- rm -rf x` and the like: where every command the words after the launching subcommand
 * may be starts (its own options skipped, each read both as a flag and as taking a value).
 */
function launchedStarts(argv: readonly string[]): number[] {
  const [name, sub] = argv;
  const launcher = name === undefined ? undefined : LAUNCH_SUBCOMMANDS[name];
  if (!launcher || sub === undefined || !launcher.sub.includes(sub)) return [];
  const found: number[] = [];
  for (let i = 2; i < argv.length; i++) {
    const word = argv[i] as string;
    if (word === "--") {
      found.push(i + 1);
      break;
    }
    // The first word that is not an option is the command, or the value of the option before it.
    if (!word.startsWith("-") && i - 2 >= (launcher.leading ?? 0)) {
      found.push(i);
      if (found.length === 2 || !(argv[i - 1] ?? "").startsWith("-") || i === 2) break;
    }
  }
  return found.filter((start) => start < argv.length);
}

/** Leading positionals that are not the command: timeout DURATION, chroot NEWROOT, flock FILE... */
const LENIENT_LEADING: Record<string, number> = {
  timeout: 1,
  chroot: 1,
  flock: 1,
  chrt: 1,
  taskset: 1,
  faketime: 1,
  runcon: 1,
  repeat: 1,
};

/** Tools whose global options may stand before the subcommand a rule names (npm --silent run x). */
const GLOBAL_OPTION_TOOLS = new Set(
  words("npm pnpm yarn bun cargo docker podman kubectl helm go deno uv pip pip3 gh"),
);

/**
 * Removes one wrapper leniently: where every command it may be wrapping starts. An option it is not
 * known to take a value for (`stdbuf --output 0 rm`) is read both ways, as a flag and as taking the next word.
 */
function lenientStarts(argv: readonly string[]): number[] {
  const name = argv[0];
  if (name === undefined || !Object.hasOwn(LENIENT_VALUED, name)) return [];
  const valued = LENIENT_VALUED[name] as readonly string[];
  const results: number[] = [];
  const pending = [1];
  for (let guard = 0; guard < 16 && pending.length > 0; guard++) {
    let i = pending.pop() as number;
    while (i < argv.length) {
      const word = argv[i] as string;
      if (word === "--") {
        i++;
        break;
      }
      if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
        i++;
        continue;
      }
      if (!word.startsWith("-") || word === "-") break;
      if (!valued.includes(word) && !word.includes("=") && /^--?[A-Za-z]/.test(word)) pending.push(i + 2);
      i += valued.includes(word) ? 2 : 1;
    }
    i += LENIENT_LEADING[name] ?? 0;
    if (i < argv.length) results.push(i);
  }
  return results;
}

/**
 * Where the commands a command line may start through a launcher begin: a wrapper (`nohup`, `sudo`,
 * `fakeroot`...), a multi-call binary's applet (`busybox tar`, `toybox rm`), a launching subcommand
 * (`npm exec --`, `uv run`). Deny rules and the path checks see through the same ones.
 */
export function launchedCommandStarts(argv: readonly string[]): number[] {
  return [...new Set([...lenientStarts(argv), ...launchedStarts(argv)])];
}

/** Leading VAR=value words (as they appear inside strings re-parsed by env or after `command`). */
function stripAssignmentWords(argv: readonly string[]): string[] {
  let i = 0;
  while (i < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[i] as string)) i++;
  return argv.slice(i);
}

/** A command name as a deny rule sees it: basename of a path, zsh `=cmd` resolved. */
export function normaliseCommandName(name: string): string {
  let normal = name.startsWith("=") && name.length > 1 ? name.slice(1) : name;
  if (normal.includes("/") && !normal.endsWith("/")) normal = normal.slice(normal.lastIndexOf("/") + 1);
  return normal;
}

/** `git-push origin` (git's own helper programs) is `git push origin`; `coreutils --coreutils-prog=rm` is rm. */
function programAliases(form: readonly string[]): string[][] {
  const [name, ...rest] = form;
  if (name === undefined) return [];
  const forms: string[][] = [];
  const helper = name.match(/^git-([a-z][a-z-]*)$/);
  if (helper) forms.push(["git", helper[1] as string, ...rest]);
  if (name === "coreutils") {
    const prog = rest.find((arg) => arg.startsWith("--coreutils-prog="));
    if (prog) forms.push([prog.slice("--coreutils-prog=".length), ...rest.filter((arg) => arg !== prog)]);
  }
  return forms;
}

/** Drops the options in front of a subcommand; with `takesValue`, each also drops the word after it. */
function dropLeadingOptions(rest: readonly string[], takesValue: boolean): string[] {
  let i = 0;
  while (i < rest.length && (rest[i] as string).startsWith("-")) {
    const word = rest[i] as string;
    i++;
    if (takesValue && !word.includes("=") && i < rest.length && !(rest[i] as string).startsWith("-")) i++;
  }
  return rest.slice(i);
}

/** `git -c alias.p=push p` runs `git push`: a plain alias replaces its name (shell aliases are code). */
function gitAliasForms(
  argv: readonly string[],
  subcommandIndex: number,
  configs: readonly string[],
): string[][] {
  const subcommand = argv[subcommandIndex];
  const forms: string[][] = [];
  for (const config of configs) {
    const match = config.match(/^alias\.([^=]+)=(.*)$/is);
    if (!match || match[1]?.toLowerCase() !== subcommand?.toLowerCase()) continue;
    const value = (match[2] as string).trim();
    if (value.startsWith("!") || value === "") continue;
    forms.push(["git", ...value.split(/\s+/), ...argv.slice(subcommandIndex + 1)]);
  }
  return forms;
}

/** `git -C x --no-pager push` -> `git push`; `npm --silent run x` -> `npm run x` (both readings). */
function withoutGlobalOptions(argv: readonly string[]): string[][] {
  const [name, ...rest] = argv;
  if (name === "git") {
    const globals = readGitGlobals(argv);
    if (globals.subcommandIndex < 1) return [];
    const plain = globals.subcommandIndex > 1 ? [[name, ...argv.slice(globals.subcommandIndex)]] : [];
    return [...plain, ...gitAliasForms(argv, globals.subcommandIndex, globals.configs)];
  }
  if (name === undefined || !GLOBAL_OPTION_TOOLS.has(name) || !rest[0]?.startsWith("-")) return [];
  return [
    [name, ...dropLeadingOptions(rest, false)],
    [name, ...dropLeadingOptions(rest, true)],
  ];
}

/** Every form a deny or ask rule must be tried on. */
export function commandFormsForDenyRules(argv: readonly string[]): string[][] {
  const forms: string[][] = [];
  const pending: string[][] = [[...argv]];
  for (let guard = 0; guard < 48 && pending.length > 0; guard++) {
    const current = pending.shift() as string[];
    if (current.length === 0) continue;
    const normalised = [normaliseCommandName(current[0] as string), ...current.slice(1)];
    const plain = [normalised, ...withoutGlobalOptions(normalised)];
    forms.push(...plain, ...plain.flatMap(subcommandAliases));
    pending.push(
      ...programAliases(normalised),
      ...launchedStarts(normalised).map((start) => normalised.slice(start)),
    );
    // Case-insensitive file systems (macOS) run `CURL` as curl.
    const lower = (normalised[0] as string).toLowerCase();
    if (lower !== normalised[0]) forms.push([lower, ...normalised.slice(1)]);
    if (normalised[0] !== current[0]) forms.push(current);
    const withoutAssignments = stripAssignmentWords(normalised);
    if (withoutAssignments.length !== normalised.length) pending.push(withoutAssignments);
    else pending.push(...lenientStarts(normalised).map((start) => normalised.slice(start)));
  }
  return forms;
}

const DECLARERS = new Set(words("export declare typeset local readonly"));
const VARIABLE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;
const MAX_RESOLVED = 64;

/** Literal values assigned to each name anywhere in the line (`a=rm`, `export a=rm`). */
function literalAssignments(commands: readonly ExtractedCommand[]): Map<string, Set<string>> {
  const values = new Map<string, Set<string>>();
  const remember = (name: string, value: string) => {
    if (/\$|`/.test(value)) return;
    values.set(name, (values.get(name) ?? new Set()).add(value));
  };
  for (const command of commands) {
    for (const assignment of command.assignments) remember(assignment.name, assignment.value.value);
    if (!DECLARERS.has(command.simple.argv[0] ?? "")) continue;
    for (const word of command.simple.argv.slice(1)) {
      const match = word.match(/^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s);
      if (match) remember(match[1] as string, match[2] as string);
    }
  }
  return values;
}

/** A form with the variables the line assigned literally put in (a whole-word variable split as bash splits it). */
function substituteVariables(form: readonly string[], values: Map<string, Set<string>>): string[][] {
  let results: string[][] = [[]];
  for (const word of form) {
    const names = [...word.matchAll(VARIABLE)].map((match) => match[1] ?? match[2]);
    const options = names.some((name) => name && values.has(name)) ? wordValues(word, values) : [[word]];
    results = results
      .flatMap((prefix) => options.map((option) => [...prefix, ...option]))
      .slice(0, MAX_RESOLVED);
  }
  return results;
}

function wordValues(word: string, values: Map<string, Set<string>>): string[][] {
  let texts = [word];
  for (const [name, assigned] of values) {
    const pattern = new RegExp(`\\$(?:\\{${name}\\}|${name}(?![A-Za-z0-9_]))`, "g");
    texts = texts.flatMap((text) =>
      pattern.test(text) ? [...assigned].map((value) => text.replace(pattern, () => value)) : [text],
    );
  }
  return texts.flatMap((text) => [[text], text.split(/\s+/).filter(Boolean)]);
}

/** Brace expansion: one word becomes several (`{rm,-rf,src}` is `rm -rf src`). */
function expandBraces(form: readonly string[]): string[] | undefined {
  if (!form.some((word) => /\{[^}]*(,|\.\.)[^}]*\}/.test(word))) return undefined;
  const expanded: string[] = [];
  for (const word of form) {
    const items = braceExpand(word);
    if (!items) return undefined;
    expanded.push(...items);
  }
  return expanded;
}

/**
 * Forms that resolve what the line itself fixes: variables it assigns literally (`a=rm; $a`) and brace
 * expansions. Each resolved form is read again like any command (wrappers, global options...).
 */
export function resolvedForms(scan: {
  commands: readonly ExtractedCommand[];
  forms: readonly string[][];
}): string[][] {
  const values = literalAssignments(scan.commands);
  const resolved: string[][] = [];
  for (const form of scan.forms) {
    const candidates =
      values.size > 0 && form.some((word) => word.includes("$")) ? substituteVariables(form, values) : [form];
    for (const candidate of candidates) {
      const braced = expandBraces(candidate);
      if (braced) resolved.push(...commandFormsForDenyRules(braced));
      else if (candidate !== form) resolved.push(...commandFormsForDenyRules(candidate));
    }
    if (resolved.length > 1_000) break;
  }
  return resolved;
}
