// The forms a deny or ask rule is tried on: the command as written, then with every wrapper (sudo,
// env, timeout, xargs, nohup, busybox...) and VAR= prefix removed in turn, leniently (any options
// skipped), with the command name normalised (/bin/rm -> rm, zsh =curl -> curl) and, for tools with
// global options (git -C x push), also without those options.
import { readGitGlobals } from "./gitSpec.ts";
import { words } from "./options.ts";

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
};

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

/** Removes one wrapper leniently (any options skipped), or returns undefined if argv[0] is none. */
function stripOneLenient(argv: readonly string[]): string[] | undefined {
  const name = argv[0];
  if (name === undefined || !(name in LENIENT_VALUED)) return undefined;
  const valued = LENIENT_VALUED[name] as readonly string[];
  let i = 1;
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
    i += valued.includes(word) ? 2 : 1;
  }
  i += LENIENT_LEADING[name] ?? 0;
  return i < argv.length ? argv.slice(i) : undefined;
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

/** `git -C x --no-pager push` -> `git push`; `npm --silent run x` -> `npm run x` (both readings). */
function withoutGlobalOptions(argv: readonly string[]): string[][] {
  const [name, ...rest] = argv;
  if (name === "git") {
    const globals = readGitGlobals(argv);
    return globals.subcommandIndex > 1 ? [[name, ...argv.slice(globals.subcommandIndex)]] : [];
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
  let current: string[] | undefined = [...argv];
  for (let guard = 0; guard < 32 && current && current.length > 0; guard++) {
    const normalised = [normaliseCommandName(current[0] as string), ...current.slice(1)];
    forms.push(normalised, ...withoutGlobalOptions(normalised));
    // Case-insensitive file systems (macOS) run `CURL` as curl.
    const lower = (normalised[0] as string).toLowerCase();
    if (lower !== normalised[0]) forms.push([lower, ...normalised.slice(1)]);
    if (normalised[0] !== current[0]) forms.push(current);
    const withoutAssignments = stripAssignmentWords(normalised);
    if (withoutAssignments.length !== normalised.length) {
      current = withoutAssignments;
      continue;
    }
    current = stripOneLenient(normalised);
  }
  return forms;
}
