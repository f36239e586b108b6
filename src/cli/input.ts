// A tool's JSON input from the command line: an argument, `-` for stdin, or stdin when piped.
import { readFileSync } from "node:fs";
import { CliError } from "./exitCodes.ts";
import type { CommandIO } from "./io.ts";

export function readJsonInput(arg: string | undefined, io: Pick<CommandIO, "stdin" | "tty">): unknown {
  let text: string;
  if (arg === undefined || arg === "-") {
    const given = io.stdin;
    if (given !== undefined) {
      if ("problem" in given)
        throw new CliError(`Could not read the tool input from stdin: ${given.problem}`);
      text = given.text;
    } else {
      if (arg === undefined && io.tty.stdin) return {};
      try {
        text = readFileSync(0, "utf8");
      } catch (error) {
        throw new CliError(`Could not read the tool input from stdin: ${(error as Error).message}`);
      }
    }
  } else text = arg;
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `The tool input is not valid JSON (${(error as Error).message}). Pass one JSON object, e.g. '{"file_path": "/abs/path"}'.`,
    );
  }
}

/** One `keel tool --jsonl` line, as help and errors show it. */
export const JSONL_EXAMPLE = '{"name": "Read", "input": {"file_path": "/abs/path"}}';
