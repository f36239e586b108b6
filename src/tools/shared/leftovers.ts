// What writers killed mid-write (kill -9, a crash, power loss) leave beside a user's files: the temporary
// copy of an atomic write, named for its process, and a lock folder. When Keel next writes a folder it
// removes those whose owner is gone. A temporary file is removed only when no process has its pid, or
// the one that has it started after the file was last written (a reused pid), and only once the file has
// been still for LEFTOVER_GRACE_MS (a writer in another pid namespace or on another host of a shared
// folder is not seen as a process here, but it keeps its file changing until it renames it). A lock
// folder is abandoned once nobody has refreshed it for far longer than a holder refreshes it.
import type { Dirent } from "node:fs";
import { lstat, opendir, rmdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { LruMap } from "../../tool/lruMap.ts";
import { ownerIsGone } from "../../tool/processAlive.ts";
import { isLockName, tempNameOwner } from "./keelNames.ts";
import { LOCK_STALE_MS } from "./processLock.ts";

/** A temporary file unchanged for this long, whose process is gone, is a leftover. */
export const LEFTOVER_GRACE_MS = 60_000;
/** A lock folder nobody refreshed for this long is abandoned (a holder refreshes it every 5 s). */
export const ABANDONED_LOCK_MS = 6 * LOCK_STALE_MS;
/** A folder is looked through at most this often by one process... */
const SWEEP_INTERVAL_MS = 60_000;
/** ...reading at most this many entries (a huge folder costs a bounded time, once a minute). */
const MAX_ENTRIES_READ = 20_000;

const lastSwept = new LruMap<string, number>(256);

export interface SweepResult {
  removed: string[];
}

async function removeIfLeftover(
  folder: string,
  entry: Dirent,
  now: number,
  graceMs: number,
): Promise<string | undefined> {
  const pid = entry.isFile() ? tempNameOwner(entry.name) : undefined;
  const isLock = pid === undefined && entry.isDirectory() && isLockName(entry.name);
  if (pid === undefined && !isLock) return undefined;
  const path = join(folder, entry.name);
  const stats = await lstat(path).catch(() => undefined);
  if (!stats) return undefined;
  if (isLock) {
    if (now - stats.mtimeMs < ABANDONED_LOCK_MS) return undefined;
    // rmdir: a lock folder is empty; anything else by that name is not ours to remove.
    return (await rmdir(path).then(
      () => true,
      () => false,
    ))
      ? path
      : undefined;
  }
  if (now - stats.mtimeMs < graceMs || !ownerIsGone(pid as number, stats.mtimeMs)) return undefined;
  return (await unlink(path).then(
    () => true,
    () => false,
  ))
    ? path
    : undefined;
}

export interface SweepOptions {
  /** Sweep even if this process swept the folder less than a minute ago. */
  force?: boolean;
  /** Default LEFTOVER_GRACE_MS. */
  graceMs?: number;
}

/**
 * Removes the leftovers of gone writers in `folder`. At most once a minute per folder and process
 * unless `force`; never throws (a folder it cannot read is left alone).
 */
export async function sweepLeftovers(folder: string, options: SweepOptions = {}): Promise<SweepResult> {
  const now = Date.now();
  const last = lastSwept.get(folder);
  if (!options.force && last !== undefined && now - last < SWEEP_INTERVAL_MS) return { removed: [] };
  lastSwept.set(folder, now);
  const removed: string[] = [];
  try {
    const dir = await opendir(folder, { bufferSize: 256 });
    let read = 0;
    for await (const entry of dir) {
      if (++read > MAX_ENTRIES_READ) break;
      if (!entry.name.startsWith(".")) continue;
      const path = await removeIfLeftover(folder, entry, now, options.graceMs ?? LEFTOVER_GRACE_MS);
      if (path) removed.push(path);
    }
  } catch {
    // Unreadable or gone: nothing to clean here.
  }
  return { removed };
}
