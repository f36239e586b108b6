// Files with no name (Linux's O_TMPFILE): a command writes into one through the descriptor it
// inherits, we read it back through ours, and it is gone when the last descriptor closes. Nothing to
// remove afterwards, nothing another process could open by name, nothing left behind by a crash.
import { constants, copyFileSync, openSync } from "node:fs";

const O_TMPFILE = 0o20000000 | constants.O_DIRECTORY;

/** What open() says when a folder cannot hold such a file: remembered. */
const UNSUPPORTED = new Set(["EOPNOTSUPP", "EISDIR", "EINVAL", "EACCES", "EPERM", "EROFS"]);
/** What it says when the folder is not there (now): asked again next time. */
const MISSING = new Set(["ENOENT", "ENOTDIR"]);

/** Folders found unable to hold one: asked once per process. */
const refused = new Set<string>();

/**
 * A new nameless file (mode 0600, open for reading and writing) in the file system of `dir`, or
 * undefined where the platform, kernel or file system has none, or `dir` does not exist. Other
 * errors (out of descriptors, ...) are thrown.
 */
export function openAnonymousFile(dir: string): number | undefined {
  if (process.platform !== "linux" || refused.has(dir)) return undefined;
  try {
    return openSync(dir, O_TMPFILE | constants.O_RDWR, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (MISSING.has(code)) return undefined;
    if (!UNSUPPORTED.has(code)) throw error;
    refused.add(dir);
    return undefined;
  }
}

/**
 * Gives a nameless file's content a name: a new file at `path` (never an existing one). Copied by the
 * kernel: a nameless file cannot be linked from Node.
 */
export function saveAnonymousFile(fd: number, path: string): void {
  copyFileSync(`/proc/self/fd/${fd}`, path, constants.COPYFILE_EXCL);
}
