// Which programs a command runs, one resolution for every check: a glob runs whatever it matches
// (`/bin/r?` is /bin/rm; `r?` is whatever name it matches in the folder, found on PATH); a launcher runs
// the command after it (`busybox tar`, `toybox rm`, `coreutils --coreutils-prog=rm`, `fakeroot tar`,
// `sudo cp`, `npm exec -- rm`: the ones deny rules see through, denyForms.ts); a name only known at run
// time ($CMD, "$(...)") is unknown, and asks in every mode; after the line changed how names are found
// (PATH=, hash -p, alias, enable), a name may run any program. The checks that key on program names
// judge every program found.
import { basename } from "node:path";
import { type CommandView, launchedView } from "./commandView.ts";
import { launchedCommandStarts } from "./denyForms.ts";
import { globMatch } from "./expand.ts";
import type { Word } from "./grammar/words.ts";
import { words } from "./options.ts";
import { assignedVariables } from "./shellVariables.ts";
import { ANALYSIS_WRAPPER_NAMES } from "./wrappers.ts";

export type ProgramReading = { kind: "views"; views: CommandView[] } | { kind: "unknown"; reason: string };

/** The command as each program it may run, or why its program cannot be known. */
export function programReadings(view: CommandView, cwd: string): ProgramReading {
  const word = view.words[0];
  const name = view.argv[0];
  if (word === undefined || name === undefined) return { kind: "views", views: [view] };
  // Keywords the grammar gives their own node (export, declare, unset...) are plain names.
  const keyword = word.unknown && !word.dynamic && /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(word.text);
  if (word.dynamic || (word.unknown && !keyword))
    return { kind: "unknown", reason: `the program ${word.text} is only known at run time` };
  if (!word.glob) return viewsOrUnknown(withLaunched(view));
  let matches: string[];
  try {
    matches = globMatch(name, cwd);
  } catch {
    return { kind: "unknown", reason: `the program ${word.text} matches too many files to judge` };
  }
  // No match now may still match when it runs (an earlier command, another folder after cd).
  if (matches.length === 0)
    return { kind: "unknown", reason: `the program ${word.text} is a glob that matches nothing here` };
  const names = name.includes("/") ? matches : matches.map((match) => basename(match));
  return viewsOrUnknown(names.flatMap((program) => withLaunched(asProgram(view, program))));
}

function viewsOrUnknown(views: CommandView[]): ProgramReading {
  const reason = unknownLaunched(views);
  return reason ? { kind: "unknown", reason } : { kind: "views", views };
}

/** Wrappers the strict reading (wrappers.ts) has already removed, or left in place on purpose (`command -v`). */
const READ_STRICTLY = new Set([...ANALYSIS_WRAPPER_NAMES, "xargs"]);
const MAX_LAUNCHED = 8;

/** The view, and the commands it launches, as views of their own (a launcher may launch a launcher). */
function withLaunched(view: CommandView): CommandView[] {
  const views = [view];
  for (let i = 0; i < views.length && views.length < MAX_LAUNCHED; i++) {
    const current = views[i] as CommandView;
    const name = current.argv[0] ?? "";
    if (READ_STRICTLY.has(name) && !current.unwrapProblem) continue;
    const argv = [basename(name), ...current.argv.slice(1)];
    for (const start of launchedCommandStarts(argv)) views.push(launchedView(current, start));
    // GNU coreutils as one binary: `coreutils --coreutils-prog=rm -rf x` is rm.
    const prog = argv[0] === "coreutils" ? argv.findIndex((arg) => arg.startsWith("--coreutils-prog=")) : -1;
    if (prog > 0) {
      const kept = (_: unknown, at: number) => at !== 0 && at !== prog;
      views.push({
        ...current,
        argv: [(argv[prog] as string).slice("--coreutils-prog=".length), ...current.argv.filter(kept)],
        words: [current.words[prog] as Word, ...current.words.filter(kept)],
      });
    }
  }
  return views.slice(0, MAX_LAUNCHED);
}

/** A launched program whose name is only known at run time (`busybox $CMD`), or undefined. */
function unknownLaunched(views: readonly CommandView[]): string | undefined {
  const word = views
    .slice(1)
    .find((view) => view.words[0]?.dynamic || view.words[0]?.unknown || view.words[0]?.glob)?.words[0];
  return word ? `the program ${word.text} is only known at run time` : undefined;
}
/** The view with its program replaced, in the effective argv and in the command as written (checks read both). */
function asProgram(view: CommandView, program: string): CommandView {
  const written = view.written.simple.argv;
  const at = written.length - view.argv.length;
  const argv = [...written.slice(0, at), program, ...written.slice(at + 1)];
  return {
    ...view,
    argv: [program, ...view.argv.slice(1)],
    written: { ...view.written, simple: { ...view.written.simple, argv } },
  };
}

/**
 * Why a program name is looked up after the line changed how names are found (PATH=, hash -p, alias,
 * enable), or undefined: it may then run any program, so it is judged like a program given by its
 * path (its arguments checked as paths it may read or write). Builtins are not looked up, unless
 * `enable` changed them.
 */
export function reboundName(view: CommandView, rebound: string | undefined): string | undefined {
  const name = view.argv[0];
  const own = view.assignments.some((assignment) => assignment.name === "PATH")
    ? "PATH= in front of it"
    : undefined;
  const why = own ?? rebound;
  if (!why || name === undefined || name.includes("/")) return undefined;
  return BUILTINS.has(name) && !why.startsWith("enable") ? undefined : why;
}

const BUILTINS = new Set(
  words(
    "cd echo printf pwd test [ true false : read export declare typeset local readonly unset let",
    "wait type command builtin hash set shopt source . eval exec exit return alias unalias getopts",
    "mapfile readarray dirs pushd popd kill trap umask ulimit times jobs fg bg disown enable help",
    "caller compgen complete compopt",
  ),
);

/** What a command does to how later names are found, or undefined. */
export function rebinding(view: CommandView): string | undefined {
  const [name, ...args] = view.argv;
  if (name === "hash" && args.some((arg) => /^-[a-zA-Z]*p/.test(arg))) return "hash -p";
  if (name === "alias" && args.some((arg) => arg.includes("="))) return "alias";
  if (name === "enable") return "enable";
  const assigned = assignedVariables(view);
  if (assigned.names.includes("PATH") || assigned.names.includes("BASH_CMDS")) return "PATH=";
  return assigned.any;
}
