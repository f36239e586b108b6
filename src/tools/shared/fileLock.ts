// One writer of a file at a time. Inside this process, edits of one file queue one after another; across
// processes, the holder also takes the file's lock folder (processLock.ts). So a check that the file is
// as it was read and the write that follows are one step: the next writer sees the result and, if it
// read an older version, is refused as stale instead of overwriting the change.
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { resolveSymlinks } from "../../permissions/paths.ts";
import { acquireProcessLock, type ProcessLockOptions } from "./processLock.ts";

const tails = new Map<string, Promise<unknown>>();

/** The lock key: the symlink-resolved path (callers give it absolute), so every name of one file shares one lock. */
export function fileLockKey(path: string): string {
  return resolveSymlinks(resolve(path));
}

export interface HeldFileLock {
  /** The caller's signal, also aborted if the cross-process lock is lost: pass it to the write. */
  signal: AbortSignal;
}

async function underProcessLock<T>(
  key: string,
  task: (held: HeldFileLock) => Promise<T>,
  options: ProcessLockOptions,
): Promise<T> {
  // The lock lives beside the file: its folder must exist (a Write into a new folder makes it anyway).
  await mkdir(dirname(key), { recursive: true });
  const lock = await acquireProcessLock(key, options);
  try {
    const signal = options.signal ? AbortSignal.any([options.signal, lock.signal]) : lock.signal;
    return await task({ signal });
  } finally {
    await lock.release();
  }
}

/**
 * Runs `task` after every earlier task holding the same file's lock has settled, holding the file's
 * cross-process lock meanwhile.
 */
export async function withFileLock<T>(
  path: string,
  task: (held: HeldFileLock) => Promise<T>,
  options: ProcessLockOptions = {},
): Promise<T> {
  const key = fileLockKey(path);
  const previous = tails.get(key) ?? Promise.resolve();
  const locked = () => underProcessLock(key, task, options);
  const run = previous.then(locked, locked);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  tails.set(key, settled);
  try {
    return await run;
  } finally {
    if (tails.get(key) === settled) tails.delete(key);
  }
}

/** How many files currently have a queue (for tests: locks must not leak). */
export function activeFileLocks(): number {
  return tails.size;
}
