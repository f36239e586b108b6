// What a command runs with, as data: the caller's folder, environment, terminals and output. A command
// run in its own process gets the process's (processIO); the decision server gets its client's, sent as
// data, so serving a request never changes the server's own process.
import type { Env } from "../tool/context.ts";

export interface TtyFlags {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
}

export interface CommandIO {
  /** The folder the command was started in. */
  cwd: string;
  env: Env;
  tty: TtyFlags;
  out(text: string): void;
  err(text: string): void;
}

/** This process as the caller: its folder, variables, terminals and standard streams. */
export function processIO(): CommandIO {
  return {
    cwd: process.cwd(),
    env: process.env,
    tty: {
      stdin: process.stdin.isTTY === true,
      stdout: process.stdout.isTTY === true,
      stderr: process.stderr.isTTY === true,
    },
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
  };
}
