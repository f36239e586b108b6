// Reading a log file line by line in fixed-size chunks, from the start or from the end, so reading a
// log of any size holds one chunk and one line in memory. A line longer than maxLineBytes is not kept:
// it is reported as `undefined` (counted by the caller as unreadable), and reading goes on after it.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

export interface LineReadOptions {
  /** Lines longer than this are skipped (default 1 MiB; an audit record is about 550 bytes). */
  maxLineBytes?: number;
  chunkBytes?: number;
}

function openQuietly(path: string): number | undefined {
  try {
    return openSync(path, "r");
  } catch {
    // Removed since it was listed (pruned by a writer): nothing to read.
    return undefined;
  }
}

/** The file's lines, first to last; `undefined` for each line over the size bound. Empty lines are left out. */
export function* linesForward(
  path: string,
  options: LineReadOptions = {},
): Generator<string | undefined, void, undefined> {
  const maxLine = options.maxLineBytes ?? 1024 * 1024;
  const fd = openQuietly(path);
  if (fd === undefined) return;
  const chunk = Buffer.allocUnsafe(options.chunkBytes ?? CHUNK_BYTES);
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let overlong = false;
  try {
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      let start = 0;
      for (
        let end = chunk.indexOf(NEWLINE, 0);
        end !== -1 && end < read;
        end = chunk.indexOf(NEWLINE, start)
      ) {
        if (overlong || carryBytes + end - start > maxLine) yield undefined;
        else if (carryBytes > 0) yield Buffer.concat([...carry, chunk.subarray(start, end)]).toString("utf8");
        else if (end > start) yield chunk.toString("utf8", start, end);
        carry = [];
        carryBytes = 0;
        overlong = false;
        start = end + 1;
      }
      if (start < read && !overlong) {
        carryBytes += read - start;
        if (carryBytes > maxLine) {
          overlong = true;
          carry = [];
        } else carry.push(Buffer.from(chunk.subarray(start, read)));
      }
    }
    if (overlong) yield undefined;
    else if (carryBytes > 0) yield Buffer.concat(carry).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** The file's lines, last to first; `undefined` for each line over the size bound. Empty lines are left out. */
export function* linesBackward(
  path: string,
  options: LineReadOptions = {},
): Generator<string | undefined, void, undefined> {
  const maxLine = options.maxLineBytes ?? 1024 * 1024;
  const fd = openQuietly(path);
  if (fd === undefined) return;
  const chunk = Buffer.allocUnsafe(options.chunkBytes ?? CHUNK_BYTES);
  // The bytes after the last newline seen, in file order (a line's end, its start not read yet).
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let overlong = false;
  try {
    let position = fstatSync(fd).size;
    while (position > 0) {
      const length = Math.min(chunk.length, position);
      position -= length;
      const read = readSync(fd, chunk, 0, length, position);
      let end = read;
      for (
        let at = chunk.lastIndexOf(NEWLINE, end - 1);
        at !== -1;
        at = chunk.lastIndexOf(NEWLINE, end - 1)
      ) {
        if (overlong || carryBytes + end - at - 1 > maxLine) yield undefined;
        else if (carryBytes > 0)
          yield Buffer.concat([chunk.subarray(at + 1, end), ...carry]).toString("utf8");
        else if (end > at + 1) yield chunk.toString("utf8", at + 1, end);
        carry = [];
        carryBytes = 0;
        overlong = false;
        end = at;
        if (at === 0) break;
      }
      if (end > 0 && !overlong) {
        carryBytes += end;
        if (carryBytes > maxLine) {
          overlong = true;
          carry = [];
        } else carry.unshift(Buffer.from(chunk.subarray(0, end)));
      }
    }
    if (overlong) yield undefined;
    else if (carryBytes > 0) yield Buffer.concat(carry).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
