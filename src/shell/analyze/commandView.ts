// One command as the checks see it: wrappers (timeout, env, xargs...) removed, with what they added.

import type { FoundFiles } from "./foundFiles.ts";
import type { ExtractedCommand, Redirect } from "./grammar/extractedCommand.ts";
import type { Word } from "./grammar/words.ts";
import { unwrapForAnalysis } from "./wrappers.ts";

export interface CommandView {
  /** The effective command: `timeout 5 rm x` -> ["rm", "x"]. */
  argv: string[];
  /** The words of argv, same indexes. */
  words: Word[];
  /** Wrappers removed, outermost first. */
  wrappers: string[];
  /** VAR=value in front of the command and given to env. */
  assignments: Array<{ name: string; value: string }>;
  redirects: Redirect[];
  /** stdin comes from the previous command of a pipeline. */
  pipedInput: boolean;
  /** xargs appends words read from stdin. */
  inputArgs: boolean;
  xargsOptions?: string[];
  /** The files xargs gives it, when the command feeding xargs names them (find | xargs). */
  fedBy?: FoundFiles;
  /** A wrapper whose options are not understood. */
  unwrapProblem?: { check: string; reason: string };
  /** The command as written. */
  written: ExtractedCommand;
}

export function viewCommand(command: ExtractedCommand): CommandView {
  const unwrapped = unwrapForAnalysis(command.simple.argv);
  return {
    argv: command.simple.argv.slice(unwrapped.offset),
    words: command.words.slice(unwrapped.offset),
    wrappers: unwrapped.wrappers,
    assignments: [
      ...command.assignments.map((assignment) => ({ name: assignment.name, value: assignment.value.value })),
      ...unwrapped.assignments,
    ],
    redirects: command.redirects,
    pipedInput: command.pipedInput,
    inputArgs: unwrapped.inputArgs,
    ...(unwrapped.xargsOptions ? { xargsOptions: unwrapped.xargsOptions } : {}),
    ...(unwrapped.problem ? { unwrapProblem: unwrapped.problem } : {}),
    written: command,
  };
}

/** The command a launcher starts at `start` of a view's argv (`busybox tar ...`), its own wrappers removed. */
export function launchedView(view: CommandView, start: number): CommandView {
  const argv = view.argv.slice(start);
  const words = view.words.slice(start);
  const unwrapped = unwrapForAnalysis(argv);
  return {
    ...view,
    argv: argv.slice(unwrapped.offset),
    words: words.slice(unwrapped.offset),
    wrappers: [...view.wrappers, ...unwrapped.wrappers],
    assignments: [...view.assignments, ...unwrapped.assignments],
    inputArgs: view.inputArgs || unwrapped.inputArgs,
    ...(unwrapped.xargsOptions ? { xargsOptions: unwrapped.xargsOptions } : {}),
    ...(unwrapped.problem ? { unwrapProblem: unwrapped.problem } : {}),
  };
}
