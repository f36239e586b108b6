// Stand-ins for protected names that do not exist yet. Without overlay support (bubblewrap 0.8), the
// only way to make a name uncreatable inside the sandbox while its folder stays writable is to mount
// something read-only on it, and a mount needs a mount point on the host. So an empty folder (mode
// 0700) stands there while a confined command runs: git, npm and editors treat an empty folder at a
// protected name as absent (an empty `.git` folder is no repository; an empty file would break git,
// and one named `.npmrc` would be committed by `git add -A`). Each stand-in is counted across the
// commands using it and removed when the last one ends, if it is still the empty folder made here;
// what someone put into it meanwhile makes it theirs, and it stays. Stand-ins still there when the
// process exits are removed then.
//
// Another Keel process's stand-in is an existing empty folder to this one, and may be removed before
// this command's bubblewrap starts. So an empty folder at a protected name is never a mount's source:
// a read-only tmpfs covers it (the same empty, read-only folder inside), and if bubblewrap had to make
// the mount point again because the folder went meanwhile, that new folder is removed after the command.
import { lstatSync, mkdirSync, readdirSync, rmdirSync } from "node:fs";

interface StandIn {
  users: number;
  dev: number;
  ino: number;
}

/** Stand-ins this process made and still counts (bounded by the names protected in a few folders). */
const live = new Map<string, StandIn>();
let exitHookInstalled = false;

function removeIfOurs(path: string, standIn: StandIn): void {
  try {
    const stats = lstatSync(path);
    if (!stats.isDirectory() || stats.dev !== standIn.dev || stats.ino !== standIn.ino) return;
    if (readdirSync(path).length > 0) return;
    rmdirSync(path);
  } catch {
    // Gone already, or no longer ours to remove.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const [path, standIn] of live) removeIfOurs(path, standIn);
    live.clear();
  });
}

/** An empty folder seen at a protected name when a command was laid out. */
export interface SeenEmptyFolder {
  path: string;
  dev: number;
  ino: number;
  /** Change time: a folder removed and made again may get the same inode number back. */
  ctimeNs: bigint;
}

/** The empty folders among `paths` (a folder with entries, a file or a link is not one). */
export function emptyFoldersAmong(paths: readonly string[]): SeenEmptyFolder[] {
  const found: SeenEmptyFolder[] = [];
  for (const path of paths) {
    try {
      const stats = lstatSync(path, { bigint: true });
      if (stats.isDirectory() && readdirSync(path).length === 0)
        found.push({ path, dev: Number(stats.dev), ino: Number(stats.ino), ctimeNs: stats.ctimeNs });
    } catch {
      // Gone already: bubblewrap makes the mount point, and removeRemadeFolders removes it.
    }
  }
  return found;
}

/**
 * After a command: each folder that stands where an empty one was seen, is empty, and is not the one
 * seen (bubblewrap made it as a mount point once the other was removed) is removed, unless this process
 * holds it as a stand-in now.
 */
export function removeRemadeFolders(seen: readonly SeenEmptyFolder[]): void {
  for (const folder of seen) {
    if (live.has(folder.path)) continue;
    try {
      const stats = lstatSync(folder.path, { bigint: true });
      const same =
        Number(stats.dev) === folder.dev &&
        Number(stats.ino) === folder.ino &&
        stats.ctimeNs === folder.ctimeNs;
      if (!stats.isDirectory() || same) continue;
      if (readdirSync(folder.path).length > 0) continue;
      rmdirSync(folder.path);
    } catch {
      // Gone, or not ours to remove.
    }
  }
}

/** Whether `path` is a stand-in this process holds now (another command's, still running). */
export function isLiveStandIn(path: string): boolean {
  return live.has(path);
}

export interface HeldStandIns {
  /** Paths now standing in, made here or shared with a command still running. */
  standing: string[];
  /** Paths that were found taken when a stand-in was to be made (something else made them meanwhile). */
  taken: string[];
  /** Gives the stand-ins back: the last user removes each one. Idempotent. */
  release: () => void;
}

/** Makes (or shares) an empty folder at each path that does not exist; the parent folders must. */
export function holdStandIns(paths: readonly string[]): HeldStandIns {
  const standing: string[] = [];
  const taken: string[] = [];
  for (const path of paths) {
    const known = live.get(path);
    if (known) {
      known.users++;
      standing.push(path);
      continue;
    }
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") taken.push(path);
      // A folder this process cannot write in cannot be written by its commands either.
      continue;
    }
    const stats = lstatSync(path);
    live.set(path, { users: 1, dev: stats.dev, ino: stats.ino });
    standing.push(path);
  }
  if (standing.length > 0) installExitHook();
  let released = false;
  return {
    standing,
    taken,
    release: () => {
      if (released) return;
      released = true;
      // Deepest first, so a stand-in inside another is gone before its parent is looked at.
      for (const path of [...standing].sort((a, b) => b.length - a.length)) {
        const standIn = live.get(path);
        if (!standIn || --standIn.users > 0) continue;
        live.delete(path);
        removeIfOurs(path, standIn);
      }
    },
  };
}
