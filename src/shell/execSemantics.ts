// What an exit code means: non-zero is an error, except the documented "not an error" codes of a
// few commands (grep 1 = no match...), judged on the last command of the pipeline or list.
import { basename } from "node:path";
import { isBashParserReady, parseBashCommand } from "./parse.ts";

export interface ExitMeaning {
  isError: boolean;
  /** A short explanation for the model when the code is not what it looks like. */
  note?: string;
}

/** Exit codes that are answers, not failures, by command name. */
const NOT_AN_ERROR: Readonly<Record<string, Readonly<Record<number, string>>>> = {
  grep: { 1: "No matches found" },
  egrep: { 1: "No matches found" },
  fgrep: { 1: "No matches found" },
  zgrep: { 1: "No matches found" },
  rg: { 1: "No matches found" },
  diff: { 1: "Files differ" },
  cmp: { 1: "Files differ" },
  find: { 1: "Some paths could not be read" },
  test: { 1: "Condition is false" },
  "[": { 1: "Condition is false" },
};

/** The program the command line ends with, or undefined when the parser cannot say. */
export function lastCommandName(command: string): string | undefined {
  if (!isBashParserReady()) return undefined;
  let parsed: ReturnType<typeof parseBashCommand>;
  try {
    parsed = parseBashCommand(command);
  } catch {
    return undefined;
  }
  if (parsed.kind !== "simple") return undefined;
  const program = parsed.commands.at(-1)?.argv[0];
  return program === undefined ? undefined : basename(program);
}

export function interpretExitCode(command: string, exitCode: number | null): ExitMeaning {
  if (exitCode === 0) return { isError: false };
  if (exitCode === null) return { isError: true };
  const name = lastCommandName(command);
  const note = name === undefined ? undefined : NOT_AN_ERROR[name]?.[exitCode];
  return note === undefined ? { isError: true } : { isError: false, note };
}
