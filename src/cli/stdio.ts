// The process's standard streams as file descriptors. process.stdout and node:tty load Node's stream
// classes and its network module to build socket or tty objects (~4 ms of a one-call command, whose
// output is a few lines): a command that writes through CommandIO asks and writes the descriptors.
import { fstatSync, writeSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** isatty(fd), asked of node:tty only for a character device (a terminal is one; pipes and files are not). */
export function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return (require("node:tty") as typeof import("node:tty")).isatty(fd);
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `data`, synchronously (as process.stdout writes to pipes and files here). A descriptor
 * another process made non-blocking answers EAGAIN while its pipe is full: wait 1 ms and go on. Any
 * other error (EPIPE: the reader is gone) is thrown.
 */
export function writeAllSync(fd: number, data: string | Uint8Array): void {
  let rest = typeof data === "string" ? Buffer.from(data) : data;
  while (rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(fd, rest));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
