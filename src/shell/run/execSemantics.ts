// What an exit code means: non-zero is an error, except the documented "not an error" codes of a
// few commands (grep 1 = no match...), judged on the last command of the pipeline or list.
// Presentation only: it decides how a result reads (error or answer), never what may run.
import { basename } from "node:path";
import type { Node } from "web-tree-sitter";
import { isBashParserReady, withBashTree } from "../analyze/grammar/parse.ts";

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

/** The last statement's node, through lists, pipelines and redirections; comments skipped. */
function lastStatement(node: Node): Node | null {
  const named = node.namedChildren.filter(
    (child): child is Node => child !== null && child.type !== "comment",
  );
  return named.at(-1) ?? null;
}

function programOf(root: Node): string | undefined {
  let node: Node | null = root;
  for (let depth = 0; node && depth < 64; depth++) {
    switch (node.type) {
      case "program":
      case "list":
      case "pipeline":
        node = lastStatement(node);
        break;
      case "redirected_statement":
        node = node.childForFieldName("body");
        break;
      case "test_command":
        return "[";
      case "command": {
        const name = node.childForFieldName("name")?.text;
        return name === undefined ? undefined : basename(name.replace(/^(['"])(.*)\1$/, "$2"));
      }
      default:
        // `! cmd` inverts the code; subshells, loops and functions are not one program's answer.
        return undefined;
    }
  }
  return undefined;
}

/**
 * The program the command line ends with (the last command of its last pipeline), or undefined when
 * the parser is not ready or the ending is not a plain command. Read from the syntax tree rather than
 * the front end: this only explains an exit code, and `[ ... ]` or a substitution earlier in the
 * line must not hide a trailing grep.
 */
export function lastCommandName(command: string): string | undefined {
  if (!isBashParserReady()) return undefined;
  try {
    return withBashTree(command, programOf);
  } catch {
    return undefined;
  }
}

export function interpretExitCode(command: string, exitCode: number | null): ExitMeaning {
  if (exitCode === 0) return { isError: false };
  if (exitCode === null) return { isError: true };
  const name = lastCommandName(command);
  const note = name === undefined ? undefined : NOT_AN_ERROR[name]?.[exitCode];
  return note === undefined ? { isError: true } : { isError: false, note };
}
