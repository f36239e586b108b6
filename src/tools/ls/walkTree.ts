// A breadth-first walk for LS: the top levels first, so a capped listing still shows the overall shape.
// Ignore files, VCS folders, Keel's own work files (a write in progress: its temporary copy and lock),
// Read-denied paths and the caller's ignore globs are applied while walking;
// symbolic links are listed but never followed.
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import ignore, { type Ignore } from "ignore";
import { ToolError } from "../../tool/errors.ts";
import { compareStrings } from "../search-shared/newestFirst.ts";
import { VCS_FOLDERS } from "../search-shared/searchArgs.ts";
import { isKeelWorkName } from "../shared/keelNames.ts";
import { ancestorLayers, type IgnoreLayer, isIgnored, readIgnoreLayer } from "./ignoreRules.ts";

export interface TreeEntry {
  /** Relative to the listed folder, "/"-separated. */
  path: string;
  isDirectory: boolean;
}

export interface WalkOptions {
  maxEntries: number;
  /** gitignore-syntax patterns relative to the root: the caller's ignore globs. */
  ignoreGlobs: readonly string[];
  /** gitignore-syntax patterns relative to the root: Read-denied paths. */
  denyPatterns: readonly string[];
  signal: AbortSignal;
}

export interface WalkResult {
  entries: TreeEntry[];
  /** True when entries were left out because of the cap. */
  truncated: boolean;
}

interface PendingFolder {
  absolute: string;
  relative: string;
  layers: readonly IgnoreLayer[];
}

function patternMatcher(patterns: readonly string[]): Ignore | undefined {
  return patterns.length === 0 ? undefined : ignore({ allowRelativePaths: true }).add([...patterns]);
}

async function readFolder(path: string): Promise<Dirent[]> {
  try {
    return await readdir(path, { withFileTypes: true });
  } catch {
    // An unreadable folder is listed without children rather than failing the whole listing.
    return [];
  }
}

export async function walkTree(root: string, options: WalkOptions): Promise<WalkResult> {
  const userIgnore = patternMatcher(options.ignoreGlobs);
  const denied = patternMatcher(options.denyPatterns);
  const entries: TreeEntry[] = [];
  const queue: PendingFolder[] = [{ absolute: root, relative: "", layers: ancestorLayers(root) }];
  for (let head = 0; head < queue.length; head++) {
    if (options.signal.aborted) throw new ToolError("aborted", "The listing was cancelled.");
    const folder = queue[head]!;
    const children = (await readFolder(folder.absolute)).sort((a, b) => compareStrings(a.name, b.name));
    const hasGit = children.some((child) => child.name === ".git" && child.isDirectory());
    const own = readIgnoreLayer(folder.absolute, hasGit);
    const layers = own ? [...folder.layers, own] : folder.layers;
    for (const child of children) {
      const isDirectory = child.isDirectory();
      if (isDirectory && (VCS_FOLDERS as readonly string[]).includes(child.name)) continue;
      if (isKeelWorkName(child.name)) continue;
      const relativePath = folder.relative ? `${folder.relative}/${child.name}` : child.name;
      const testPath = isDirectory ? `${relativePath}/` : relativePath;
      if (denied?.ignores(testPath) || userIgnore?.ignores(testPath)) continue;
      const absolute = join(folder.absolute, child.name);
      if (isIgnored(layers, absolute, isDirectory)) continue;
      if (entries.length >= options.maxEntries) return { entries, truncated: true };
      entries.push({ path: relativePath, isDirectory });
      if (isDirectory) queue.push({ absolute, relative: relativePath, layers });
    }
  }
  return { entries, truncated: false };
}
