// What a command runs with, as data: the caller's folder, environment, terminals and output. A command
// run in its own process gets the process's (processIO); the decision server gets its client's, sent as
// data, so serving a request never changes the server's own process.
import { isatty } from "node:tty";
import type { RecordHolder } from "../audit/heldSink.ts";
import type { Env } from "../tool/context.ts";

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

/** This process as the caller: its folder, variables, terminals and standard streams. */
export function processIO(stdin?: GivenStdin): CommandIO {
  return {
    ...(stdin === undefined ? {} : { stdin }),
    cwd: process.cwd(),
    env: process.env,
    tty: {
      // Not process.stdin.isTTY: that getter builds the stdin stream, which most commands never read.
      stdin: isatty(0),
      stdout: process.stdout.isTTY === true,
      stderr: process.stderr.isTTY === true,
    },
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
  };
}
