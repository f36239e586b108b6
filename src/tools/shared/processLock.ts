// The lock every Keel process takes before it checks and replaces a file, so that two processes (two
// `keel tool` sessions, two agents) never both pass the staleness check and then overwrite each other.
// It is a folder beside the file (proper-lockfile: mkdir is atomic, also on network file systems), kept
// fresh while held; one a killed process left is stale after LOCK_STALE_MS and taken over. Waiting is
// bounded and follows the caller's abort signal; a lock lost while held aborts the holder's signal.
import { setTimeout as sleep } from "node:timers/promises";
import { ToolError } from "../../tool/errors.ts";
import { lockPathFor } from "./keelNames.ts";

/** A lock not refreshed for this long belongs to a process that died or stopped: it is taken over. */
export const LOCK_STALE_MS = 10_000;
/** How long a writer waits for another process's lock before giving up (a stale one is gone by then). */
export const LOCK_WAIT_MS = 30_000;
const FIRST_RETRY_MS = 2;
const MAX_RETRY_MS = 100;

type LockLibrary = typeof import("proper-lockfile");
let library: LockLibrary | undefined;

/** Loaded on the first write: a session that only reads never loads it (nor its exit handler). */
async function lockLibrary(): Promise<LockLibrary> {
  library ??= ((await import("proper-lockfile")) as { default: LockLibrary }).default;
  return library;
}

export interface HeldProcessLock {
  /** Aborted when the lock was lost while held (the holder stalled past LOCK_STALE_MS): do not write. */
  signal: AbortSignal;
  release(): Promise<void>;
}

export interface ProcessLockOptions {
  signal?: AbortSignal;
  waitMs?: number;
}

function lostLockError(path: string): ToolError {
  return new ToolError(
    "changed_since_read",
    `Keel lost its lock on ${path} while changing it (the process was stalled), so another program may have changed the file and what was read may be stale; nothing was written. Read the file again, then retry the change.`,
  );
}

function busyError(path: string, waitedMs: number): ToolError {
  return new ToolError(
    "file_busy",
    `Another Keel process has been writing ${path} for over ${Math.round(waitedMs / 1000)} s; nothing was written. Wait a little, read the file again, then retry.`,
  );
}

/** What the lock folder's creation failing means for the write that wanted it. */
function lockFailure(path: string, error: NodeJS.ErrnoException): Error {
  if (error.code === "EACCES" || error.code === "EPERM")
    return new ToolError(
      "read_only",
      `Cannot write ${path}: you may not create files in its folder (Keel writes the new content beside the file, then renames it over the old one). Ask the user to make the folder writable, or write the file elsewhere.`,
    );
  if (error.code === "EROFS")
    return new ToolError(
      "read_only",
      `Cannot write ${path}: it is on a read-only file system. Write the file elsewhere.`,
    );
  return error;
}

/**
 * Takes the cross-process lock of `path` (an absolute, symlink-resolved file path whose folder exists),
 * waiting at most `waitMs` for another holder.
 */
export async function acquireProcessLock(
  path: string,
  options: ProcessLockOptions = {},
): Promise<HeldProcessLock> {
  const lockfile = await lockLibrary();
  const lost = new AbortController();
  const deadline = Date.now() + (options.waitMs ?? LOCK_WAIT_MS);
  for (let delay = FIRST_RETRY_MS; ; delay = Math.min(delay * 2, MAX_RETRY_MS)) {
    options.signal?.throwIfAborted();
    try {
      const release = await lockfile.lock(path, {
        lockfilePath: lockPathFor(path),
        realpath: false,
        stale: LOCK_STALE_MS,
        retries: 0,
        onCompromised: () => lost.abort(lostLockError(path)),
      });
      return {
        signal: lost.signal,
        release: () => release().catch(() => undefined),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ELOCKED")
        throw lockFailure(path, error as NodeJS.ErrnoException);
      if (Date.now() >= deadline) throw busyError(path, options.waitMs ?? LOCK_WAIT_MS);
      await sleep(delay, undefined, options.signal ? { signal: options.signal } : {}).catch(() =>
        options.signal?.throwIfAborted(),
      );
    }
  }
}
