// What a sandbox wrap read from the disk, recorded so that it can be re-checked in well under a
// millisecond before the wrap is used again (sandboxTemplates.ts). Three kinds of facts:
// - path chains: every component of a path the policy or the wrap names, by type, mode and owner
//   (a link also by identity, a file by emptiness and links): a created, removed or swapped
//   component, a changed permission, a new link anywhere on the way;
// - scanned folders: the folders the runtime's protected-file scan lists (the process's cwd, three
//   levels deep, without node_modules), by their subfolders and hidden entries; plus the ignore
//   files that decide what that scan sees;
// - globbed folders: the folders a read-deny glob is expanded in, by their whole listing.
// A folder's change time answers for its listing when it is old enough to be trusted: timestamps
// move in coarse ticks, so one taken within RACY_MS of the snapshot may not show a later change.
import { type Dirent, lstatSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, sep } from "node:path";

/** Change times newer than this (ms) before a look may hide a change made in the same tick. */
export const RACY_MS = 2_000;
/** Beyond this many folders to watch, re-checking costs more than it saves: no reuse. */
export const MAX_WATCHED_DIRS = 2_000;
/** How deep the runtime's protected-file scan lists (its default search depth, 3, in files). */
const SCAN_DIR_DEPTH = 2;
/** Files that decide what the scan (ripgrep, honouring ignore files) reports. */
const IGNORE_FILES = [".gitignore", ".ignore", ".rgignore"];

export interface FingerprintInputs {
  /** Paths whose components are recorded (absent ones too: their creation counts). */
  chains: Iterable<string>;
  /** The folder the runtime's protected-file scan starts in (the process's cwd); none for bare bubblewrap. */
  scanRoot?: string;
  /** Folders read-deny globs are expanded in, and how many levels down (Infinity for `**`). */
  globRoots: ReadonlyArray<{ dir: string; depth: number }>;
}

interface WatchedDir {
  kind: "scan" | "glob";
  mode: number;
  /** Change time that vouches for `listing`; undefined when too recent to trust. */
  ctimeMs: number | undefined;
  listing: string;
}

export interface Fingerprint {
  chains: Map<string, string>;
  dirs: Map<string, WatchedDir>;
  /** Ignore files by path: identity and content stamp, or "racy" (changed too recently: never holds). */
  files: Map<string, string>;
}

/** How a path is seen where a placeholder may stand (sandboxTemplates.ts): answers whether it may. */
export type PlaceholderCheck = (path: string) => boolean;

const typeOf = (entry: { isDirectory(): boolean; isSymbolicLink(): boolean; isFile(): boolean }) =>
  entry.isDirectory() ? "d" : entry.isSymbolicLink() ? "l" : entry.isFile() ? "f" : "o";

/** A path's type, permissions and owner; a link's identity; a file's emptiness and link count. "-": absent. */
export function pathSignature(path: string): string {
  try {
    const stats = lstatSync(path);
    const type = typeOf(stats);
    const base = `${type}:${stats.mode}:${stats.uid}`;
    if (type === "l") return `${base}:${stats.dev}:${stats.ino}`;
    if (type === "f") return `${base}:${stats.nlink}:${stats.size === 0 ? "empty" : "data"}`;
    return base;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "-" : `!${code}`;
  }
}

/** A file's identity and content stamp, for ignore files; "racy" when it changed too recently to tell. */
function contentSignature(path: string, now: number): string {
  try {
    const stats = statSync(path);
    if (Math.max(stats.ctimeMs, stats.mtimeMs) > now - RACY_MS) return "racy";
    return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "-" : `!${code}`;
  }
}

/** "/", "/a", "/a/b" for "/a/b". */
export function componentsOf(path: string): string[] {
  const parts = path.split(sep).filter(Boolean);
  const components: string[] = [sep];
  for (let i = 0; i < parts.length; i++) components.push(sep + parts.slice(0, i + 1).join(sep));
  return components;
}

function recordChain(chains: Map<string, string>, path: string): void {
  for (const component of componentsOf(path)) {
    let signature = chains.get(component);
    if (signature === undefined) {
      signature = pathSignature(component);
      chains.set(component, signature);
    }
    // Nothing below an absent component or a non-folder can exist: its creation shows here.
    if (signature === "-" || !signature.startsWith("d")) return;
  }
}

function listDir(path: string): Dirent[] | undefined {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch {
    return undefined;
  }
}

/** What the scan can see change in a folder: its subfolders and hidden entries (where protected names live). */
function scanListing(entries: readonly Dirent[], skip?: PlaceholderCheck, dir?: string): string {
  const kept: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() && !entry.name.startsWith(".")) continue;
    if (skip && dir !== undefined && skip(join(dir, entry.name))) continue;
    kept.push(`${typeOf(entry)}${entry.name}`);
  }
  return kept.sort().join("\0");
}

/** A folder's whole listing, links with their targets (a glob walk follows them). */
function globListing(dir: string, entries: readonly Dirent[], skip?: PlaceholderCheck): string {
  const kept: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (skip?.(path)) continue;
    let line = `${typeOf(entry)}${entry.name}`;
    if (entry.isSymbolicLink()) {
      try {
        line += `>${readlinkSync(path)}`;
      } catch {
        line += ">?";
      }
    }
    kept.push(line);
  }
  return kept.sort().join("\0");
}

function listingOf(
  kind: WatchedDir["kind"],
  dir: string,
  entries: readonly Dirent[],
  skip?: PlaceholderCheck,
) {
  return kind === "scan" ? scanListing(entries, skip, dir) : globListing(dir, entries, skip);
}

function isDirectoryTarget(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

class TooManyDirs extends Error {}

/** Records a folder (a glob's watch wins over the scan's: its listing says more) and returns its entries. */
function watchDir(
  fingerprint: Fingerprint,
  kind: WatchedDir["kind"],
  dir: string,
  now: number,
): Dirent[] | undefined {
  const known = fingerprint.dirs.get(dir);
  if (!known && fingerprint.dirs.size >= MAX_WATCHED_DIRS) throw new TooManyDirs();
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(dir);
  } catch {
    return undefined;
  }
  // Listed after the change time is read: a change in between makes the time newer, never older.
  const entries = listDir(dir);
  if (!entries) return undefined;
  if (!known || (known.kind === "scan" && kind === "glob"))
    fingerprint.dirs.set(dir, {
      kind,
      mode: stats.mode,
      ctimeMs: stats.ctimeMs > now - RACY_MS ? undefined : stats.ctimeMs,
      listing: listingOf(kind, dir, entries),
    });
  return entries;
}

/** The scan's folders, without following links, node_modules left out as the scan leaves it out. */
function watchScan(fingerprint: Fingerprint, root: string, now: number): void {
  let level = [root];
  for (let depth = 0; depth <= SCAN_DIR_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      const entries = watchDir(fingerprint, "scan", dir, now);
      for (const entry of entries ?? []) {
        if (IGNORE_FILES.includes(entry.name))
          fingerprint.files.set(join(dir, entry.name), contentSignature(join(dir, entry.name), now));
        if (entry.isDirectory() && entry.name !== "node_modules") next.push(join(dir, entry.name));
      }
    }
    level = next;
  }
  // Ignore files of the folders above, the repository's exclude file and the user's global one.
  const above = [...componentsOf(root)];
  const candidates = above.flatMap((dir) => [
    ...IGNORE_FILES.map((name) => join(dir, name)),
    join(dir, ".git", "info", "exclude"),
  ]);
  const config = process.env.XDG_CONFIG_HOME || join(homedir(), ".config");
  candidates.push(join(config, "git", "ignore"));
  for (const path of candidates)
    if (!fingerprint.files.has(path)) fingerprint.files.set(path, contentSignature(path, now));
}

/** A glob's folders, links followed (as the expansion follows them), each real folder once. */
function watchGlob(fingerprint: Fingerprint, root: string, depth: number, now: number): void {
  const seen = new Set<string>();
  let level = [root];
  for (let at = 0; at < depth && level.length > 0; at++) {
    const next: string[] = [];
    for (const dir of level) {
      let identity: string;
      try {
        const stats = statSync(dir);
        identity = `${stats.dev}:${stats.ino}`;
      } catch {
        continue;
      }
      if (seen.has(identity)) continue;
      seen.add(identity);
      const entries = watchDir(fingerprint, "glob", dir, now) ?? [];
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.isDirectory() || (entry.isSymbolicLink() && isDirectoryTarget(path))) next.push(path);
      }
    }
    level = next;
  }
  recordChain(fingerprint.chains, root);
}

/** Records the facts; undefined when there are too many folders to watch. */
export function takeFingerprint(inputs: FingerprintInputs, now = Date.now()): Fingerprint | undefined {
  const fingerprint: Fingerprint = { chains: new Map(), dirs: new Map(), files: new Map() };
  try {
    for (const path of inputs.chains) recordChain(fingerprint.chains, path);
    if (inputs.scanRoot !== undefined) watchScan(fingerprint, inputs.scanRoot, now);
    for (const { dir, depth } of inputs.globRoots) watchGlob(fingerprint, dir, depth, now);
  } catch (error) {
    if (error instanceof TooManyDirs) return undefined;
    throw error;
  }
  return fingerprint;
}

/** Watches the whole listing of folders a wrap binds elsewhere (recorded after the wrap); false if too many. */
export function addMountSources(fingerprint: Fingerprint, dirs: Iterable<string>, now = Date.now()): boolean {
  try {
    for (const dir of dirs) {
      try {
        if (!statSync(dir).isDirectory()) continue;
      } catch {
        continue;
      }
      fingerprint.dirs.delete(dir);
      watchDir(fingerprint, "glob", dir, now);
    }
    return true;
  } catch (error) {
    if (error instanceof TooManyDirs) return false;
    throw error;
  }
}

/** Adds chains recorded after the wrap (the paths its mounts name). */
export function addChains(fingerprint: Fingerprint, paths: Iterable<string>): void {
  for (const path of paths) recordChain(fingerprint.chains, path);
}

function dirHolds(
  dir: string,
  watched: WatchedDir,
  now: number,
  mayBePlaceholder: PlaceholderCheck | undefined,
): boolean {
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(dir);
  } catch {
    return false;
  }
  if (!stats.isDirectory() || stats.mode !== watched.mode) return false;
  if (watched.ctimeMs !== undefined && stats.ctimeMs === watched.ctimeMs) return true;
  const entries = listDir(dir);
  if (!entries || listingOf(watched.kind, dir, entries, mayBePlaceholder) !== watched.listing) return false;
  // Same listing under a new change time: that time vouches from now on, once it is old enough.
  if (stats.ctimeMs <= now - RACY_MS) watched.ctimeMs = stats.ctimeMs;
  return true;
}

/**
 * Whether everything recorded is as it was. `mayBePlaceholder` names paths where a mount point of a
 * sandbox running now may stand although nothing stood there when the wrap was made.
 */
export function fingerprintHolds(
  fingerprint: Fingerprint,
  mayBePlaceholder?: PlaceholderCheck,
  now = Date.now(),
): boolean {
  for (const [path, signature] of fingerprint.chains) {
    const current = pathSignature(path);
    if (current === signature) continue;
    if (signature === "-" && mayBePlaceholder?.(path)) continue;
    return false;
  }
  for (const [path, signature] of fingerprint.files)
    if (signature === "racy" || contentSignature(path, now) !== signature) return false;
  for (const [dir, watched] of fingerprint.dirs)
    if (!dirHolds(dir, watched, now, mayBePlaceholder)) return false;
  return true;
}

/** The folder a glob's static part names: the components before the first one with a wildcard. */
export function globRoot(pattern: string): { dir: string; depth: number } | undefined {
  const parts = pattern.split(sep);
  const first = parts.findIndex((part) => /[*?[\]{}]/.test(part));
  if (first === -1) return undefined;
  const rest = parts.slice(first);
  const dir = parts.slice(0, first).join(sep) || sep;
  return { dir, depth: rest.some((part) => part.includes("**")) ? Number.POSITIVE_INFINITY : rest.length };
}
