// Folders only this user may enter: where Keel keeps what other users must not read or plant (decision
// server sockets, saved tool results). A folder is private when it is a real folder (no symlink), this
// user owns it, and nobody else has any permission on it. Kept to Node built-ins loaded through
// require(): the decision server's client loads this at every `keel hook` start.
import { createRequire } from "node:module";

// An ES import of node:fs builds a facade that loads all of fs's streams.
const require = createRequire(import.meta.url);
const { chmodSync, lstatSync, mkdirSync } = require("node:fs") as typeof import("node:fs");
const { dirname, relative, resolve, sep } = require("node:path") as typeof import("node:path");

/** os.tmpdir() of the given environment (it reads process.env). */
export function tmpFolder(env: NodeJS.ProcessEnv): string {
  const given = env.TMPDIR || env.TMP || env.TEMP || "/tmp";
  return given.length > 1 ? given.replace(/\/+$/, "") : given;
}

export function isPrivateFolder(path: string, uid: number): boolean {
  try {
    const stat = lstatSync(path);
    return stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

export class PrivateFolderError extends Error {
  constructor(path: string, why: string) {
    super(
      `${path} ${why}, so Keel will not keep private files in it. Remove it, or set TMPDIR to a folder of your own.`,
    );
    this.name = "PrivateFolderError";
  }
}

/** `root` and each folder below it down to `path`, outermost first. */
function chain(root: string, path: string): string[] {
  const folders = [root];
  const below = relative(root, path);
  if (below === "") return folders;
  let current = root;
  for (const part of below.split(sep)) {
    current = `${current}${sep}${part}`;
    folders.push(current);
  }
  return folders;
}

/**
 * Makes `path` and checks every folder from `root` down to it, one at a time before anything is made in
 * it: a real folder of this user's, open to nobody else. Missing ones are made with mode 0700; one of this
 * user's that others may enter (made by an older Keel, or under another umask) is closed (0700); another
 * user's, or a symlink, is refused. `root` must be `path` or a folder above it.
 */
export function ensurePrivateFolder(path: string, root: string = path): void {
  const target = resolve(path);
  const top = resolve(root);
  if (top !== target && !target.startsWith(`${top}${sep}`))
    throw new Error(`${root} is not a folder above ${path}`);
  mkdirSync(dirname(top), { recursive: true });
  const uid = process.getuid?.();
  for (const folder of chain(top, target)) {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (uid === undefined) continue;
    const stat = lstatSync(folder);
    if (!stat.isDirectory()) throw new PrivateFolderError(folder, "is a symbolic link or not a folder");
    if (stat.uid !== uid) throw new PrivateFolderError(folder, `belongs to another user (uid ${stat.uid})`);
    if ((stat.mode & 0o077) !== 0) chmodSync(folder, 0o700);
  }
}
