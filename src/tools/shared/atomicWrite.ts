// Atomic file replacement: write a temporary file in the same folder, fsync it, rename it over the
// target, fsync the folder. A crash at any point leaves either the old file or the new one, never a mix.
// The target must be writable by this user (a read-only file is refused, as `tee -a` would refuse it),
// and, when the caller says what it expects to replace, is checked again just before the rename.

import { constants, type Stats } from "node:fs";
import { access, link, lstat, mkdir, open, realpath, rename, stat, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { ToolError } from "../../tool/errors.ts";
import { isAtomicTempName, tempPathFor } from "./keelNames.ts";
import { sweepLeftovers } from "./leftovers.ts";

/** What identifies one version of a file: a rename, a write or a chmod changes at least one of these. */
export type FileIdentity = Pick<Stats, "dev" | "ino" | "size" | "mtimeMs" | "ctimeMs">;

export interface AtomicWriteOptions {
  /** Permission bits for a new file (default 0o666 less the umask). An existing file keeps its own. */
  mode?: number;
  signal?: AbortSignal;
  /** Bytes written per write() call; progress is reported between chunks. */
  chunkSize?: number;
  /** Called after each chunk reaches the temporary file (progress, or a test's chance to interrupt). */
  onChunkWritten?: (bytesWritten: number, tempPath: string) => void | Promise<void>;
  /**
   * The version this write replaces (or "absent": it creates the file). Checked again right before the
   * rename; another version there refuses the write as stale and leaves the file as it is.
   */
  expect?: FileIdentity | "absent";
}

export { isAtomicTempName };

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, "0");
}

/** Why this user may not replace `path` (mode bits, or a read-only file system), or undefined. */
export async function readOnlyProblem(path: string, stats: Stats): Promise<ToolError | undefined> {
  try {
    await access(path, constants.W_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EROFS")
      return new ToolError(
        "read_only",
        `Cannot write ${path}: it is on a read-only file system. Write elsewhere.`,
      );
    if (code !== "EACCES" && code !== "EPERM") return undefined;
    const owner = stats.uid === process.getuid?.() ? "" : `, owned by uid ${stats.uid}`;
    return new ToolError(
      "read_only",
      `${path} is read-only (mode ${octal(stats.mode)}${owner}): you may not write it, so it was not changed. If it should change, ask the user to make it writable for you (for example chmod u+w), then read it again and retry.`,
    );
  }
}

function sameVersion(now: Stats, expected: FileIdentity): boolean {
  return (
    now.dev === expected.dev &&
    now.ino === expected.ino &&
    now.size === expected.size &&
    now.mtimeMs === expected.mtimeMs &&
    now.ctimeMs === expected.ctimeMs
  );
}

function changedWhileWriting(path: string): ToolError {
  return new ToolError(
    "changed_since_read",
    `${path} was changed by another program while this change was being written, so the content it was checked against is stale; nothing was written. Read the file again, then retry the change.`,
  );
}

async function statOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function isVersion(now: Stats | undefined, expected: FileIdentity | "absent"): boolean {
  return expected === "absent" ? now === undefined : now !== undefined && sameVersion(now, expected);
}

/** Throws unless `target` is still the version the caller expects to replace. */
async function assertExpected(
  path: string,
  target: string,
  expected: FileIdentity | "absent",
): Promise<void> {
  if (!isVersion(await statOrUndefined(target), expected)) throw changedWhileWriting(path);
}

/**
 * Puts the finished temporary file in place. A new file is linked (fails if one appeared meanwhile: no
 * window at all), where the file system has hard links; otherwise checked, then renamed.
 */
async function putInPlace(
  path: string,
  tempPath: string,
  target: string,
  expected: FileIdentity | "absent" | undefined,
): Promise<void> {
  if (expected === "absent") {
    try {
      await link(tempPath, target);
      await unlink(tempPath).catch(() => undefined);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw changedWhileWriting(path);
      // No hard links here (EPERM, ENOTSUP, ...): check, then rename.
    }
  }
  if (expected !== undefined) await assertExpected(path, target, expected);
  await rename(tempPath, target);
}

async function existingTarget(path: string): Promise<string> {
  try {
    // Writing through a symlink replaces the file it points to; the link itself stays.
    if ((await lstat(path)).isSymbolicLink()) return await realpath(path);
  } catch {
    // Missing: it will be created.
  }
  return path;
}

async function fsyncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some filesystems refuse fsync on folders; the rename is still atomic there.
  }
}

/**
 * Replaces (or creates) `path` with `data` (one buffer, or pieces in order) atomically, keeping mode and
 * owner. Then removes what killed writers left in the folder (leftovers.ts).
 */
export async function writeFileAtomic(
  path: string,
  data: Uint8Array | readonly Uint8Array[],
  options: AtomicWriteOptions = {},
): Promise<void> {
  const pieces = data instanceof Uint8Array ? [data] : data;
  const target = await existingTarget(path);
  const folder = dirname(target);
  await mkdir(folder, { recursive: true });
  const previous = await statOrUndefined(target);
  if (previous?.isDirectory()) throw new ToolError("is_directory", `${target} is a directory, not a file.`);
  if (previous) {
    const problem = await readOnlyProblem(target, previous);
    if (problem) throw problem;
  }
  // Already another version: refused before anything is written (and checked again before the rename).
  if (options.expect !== undefined && !isVersion(previous, options.expect)) throw changedWhileWriting(path);
  const mode = previous ? previous.mode & 0o7777 : (options.mode ?? 0o666);
  const tempPath = tempPathFor(target);
  const handle = await open(tempPath, "wx", mode);
  let placed = false;
  try {
    if (previous) {
      // Owner first: a chown clears the set-id bits that the chmod after it puts back.
      if (previous.uid !== process.getuid?.() || previous.gid !== process.getgid?.())
        await handle.chown(previous.uid, previous.gid).catch(() => undefined);
      await handle.chmod(mode);
    }
    const chunkSize = options.chunkSize ?? 8 << 20;
    let written = 0;
    for (const piece of pieces) {
      let done = 0;
      while (done < piece.length) {
        options.signal?.throwIfAborted();
        const length = Math.min(chunkSize, piece.length - done);
        const { bytesWritten } = await handle.write(piece, done, length, written);
        done += bytesWritten;
        written += bytesWritten;
        await options.onChunkWritten?.(written, tempPath);
      }
    }
    await handle.sync();
    await handle.close();
    options.signal?.throwIfAborted();
    await putInPlace(path, tempPath, target, options.expect);
    placed = true;
    await fsyncFolder(folder);
  } finally {
    if (!placed) {
      await handle.close().catch(() => undefined);
      await unlink(tempPath).catch(() => undefined);
    }
  }
  await sweepLeftovers(folder);
}
