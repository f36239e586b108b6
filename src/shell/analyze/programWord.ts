// The program a command runs, when its name is not a literal word: a glob runs whatever it matches
// (`/bin/r?` is /bin/rm; `r?` is whatever name it matches in the folder, found on PATH), so the checks
// that key on program names judge every match; a name only known at run time ($CMD, "$(...)") is
// unknown, and asks in every mode.
import { basename } from "node:path";
import type { CommandView } from "./commandView.ts";
import { globMatch } from "./expand.ts";

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
  if (!word.glob) return { kind: "views", views: [view] };
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
  return { kind: "views", views: names.map((program) => asProgram(view, program)) };
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
