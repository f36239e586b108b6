// Per-file serialization inside this process: edits of one file run one after another, so two
// concurrent edits both land (each sees the other's result) instead of the last one winning.
import { resolve } from "node:path";
import { resolveSymlinks } from "../../permissions/paths.ts";

const tails = new Map<string, Promise<unknown>>();

/** The lock key: the symlink-resolved path (callers give it absolute), so every name of one file shares one lock. */
export function fileLockKey(path: string): string {
  return resolveSymlinks(resolve(path));
}

/** Runs `task` after every earlier task holding the same file's lock has settled. */
export async function withFileLock<T>(path: string, task: () => Promise<T>): Promise<T> {
  const key = fileLockKey(path);
  const previous = tails.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
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
