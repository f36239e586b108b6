// What a command runs with, as data: the caller's folder, environment, terminals and output. A command
// run in its own process gets the process's (processIO); the decision server gets its client's, sent as
// data, so serving a request never changes the server's own process.
import type { RecordHolder } from "../audit/heldSink.ts";
import type { Env } from "../tool/context.ts";
import { errorMessage } from "../tool/errors.ts";
import { EXIT } from "./exitCodes.ts";
import { isTerminal, writeAllSync } from "./stdio.ts";

export interface TtyFlags {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
}

/** Standard input already read for the command (a hook event the decision server's client read), or why not. */
export type GivenStdin = { text: string } | { problem: string };

export interface CommandIO {
  /** The folder the command was started in. */
  cwd: string;
  env: Env;
  tty: TtyFlags;
  out(text: string): void;
  err(text: string): void;
  /** Standard input, when it was read before the command ran; otherwise the command reads fd 0. */
  stdin?: GivenStdin;
  /** Holds the command's decision records (a decision server, until its client acknowledged the answer). */
  holdRecords?: RecordHolder;
  /** Aborted when the caller goes away (a decision server's client that gave up). */
  signal?: AbortSignal;
}

/**
 * This process as the caller: its folder, variables, terminals and standard streams, asked and written
 * as descriptors (stdio.ts): process.stdin, stdout and stderr are built only by code that uses them.
 */
export function processIO(stdin?: GivenStdin): CommandIO {
  return {
    ...(stdin === undefined ? {} : { stdin }),
    cwd: process.cwd(),
    env: process.env,
    tty: { stdin: isTerminal(0), stdout: isTerminal(1), stderr: isTerminal(2) },
    out: (text) => writeOrStop(1, text),
    err: (text) => writeOrStop(2, text),
  };
}

/**
 * `keel tools | head`: when the reader goes away, stop quietly with the command's exit code instead of
 * dying with an EPIPE stack trace; an output that cannot be written otherwise is an error.
 */
export function writeOrStop(fd: 1 | 2, text: string): void {
  try {
    writeAllSync(fd, text);
  } catch (error) {
    stopOnOutputError(fd, error);
  }
}

/** The rule for an output that failed, written through the descriptor or a stream (cli/main.ts). */
export function stopOnOutputError(fd: 1 | 2, error: unknown): never {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== "EPIPE" && fd === 1) {
    try {
      writeAllSync(2, `keel: cannot write the output: ${errorMessage(error)}\n`);
    } catch {}
  }
  process.exit(code === "EPIPE" ? (process.exitCode ?? EXIT.ok) : EXIT.toolError);
}
