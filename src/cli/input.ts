// A tool's JSON input from the command line: an argument, `-` for stdin, or stdin when piped.
import { CliError } from "./exitCodes.ts";
import type { CommandIO } from "./io.ts";

/**
 * All of stdin as text. Read as a stream, not with one blocking read: a stop signal that arrives while
 * the writer has not finished is handled at once (tool/stopSignals.ts).
 */
export async function readStdinText(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function readJsonInput(
  arg: string | undefined,
  io: Pick<CommandIO, "stdin" | "tty">,
): Promise<unknown> {
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
        text = await readStdinText();
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
