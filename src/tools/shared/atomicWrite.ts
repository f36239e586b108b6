// Atomic file replacement: write a temporary file in the same folder, fsync it, rename it over the
// target, fsync the folder. A crash at any point leaves either the old file or the new one, never a mix.

import { constants } from "node:fs";
import { chown, lstat, mkdir, open, realpath, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { randomBytes } from "../../tool/lazyCrypto.ts";

export interface AtomicWriteOptions {
  /** Permission bits for a new file (default 0o666 less the umask). An existing file keeps its own. */
  mode?: number;
  signal?: AbortSignal;
  /** Bytes written per write() call; progress is reported between chunks. */
  chunkSize?: number;
  /** Called after each chunk reaches the temporary file (progress, or a test's chance to interrupt). */
  onChunkWritten?: (bytesWritten: number, tempPath: string) => void | Promise<void>;
}

const TEMP_MARKER = ".keel-tmp";

/** The temporary name used beside a target; exported so tests and cleanup can recognise leftovers. */
export function isAtomicTempName(name: string): boolean {
  return name.startsWith(".") && name.endsWith(TEMP_MARKER);
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

/** Replaces (or creates) `path` with `data` (one buffer, or pieces in order) atomically, keeping mode and owner. */
export async function writeFileAtomic(
  path: string,
  data: Uint8Array | readonly Uint8Array[],
  options: AtomicWriteOptions = {},
): Promise<void> {
  const pieces = data instanceof Uint8Array ? [data] : data;
  const target = await existingTarget(path);
  const folder = dirname(target);
  await mkdir(folder, { recursive: true });
  const previous = await stat(target).catch(() => undefined);
  if (previous?.isDirectory()) throw new Error(`${target} is a directory`);
  const mode = previous ? previous.mode & 0o7777 : (options.mode ?? 0o666);
  const tempPath = join(
    folder,
    `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}${TEMP_MARKER}`,
  );
  const handle = await open(tempPath, "wx", mode);
  let renamed = false;
  try {
    if (previous) {
      await handle.chmod(mode);
      if (previous.uid !== process.getuid?.() || previous.gid !== process.getgid?.())
        await chown(tempPath, previous.uid, previous.gid).catch(() => undefined);
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
    await rename(tempPath, target);
    renamed = true;
    await fsyncFolder(folder);
  } finally {
    if (!renamed) {
      await handle.close().catch(() => undefined);
      await unlink(tempPath).catch(() => undefined);
    }
  }
}
