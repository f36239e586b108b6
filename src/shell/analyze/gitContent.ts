// The paths whose content git can print from a repository: the ones in its index (tracked or staged)
// and the ones any commit it can reach ever held (refs and reflogs). `git diff` and `git log -p` show
// only those, so a Read rule on `.env` is only at stake when `.env` is among them.
//
// Found by asking git itself, once per repository state: `git ls-files -z` and a `git log --name-only`
// over every ref and reflog, run with a fixed PATH, no pager, no optional locks, no lazy fetch, no
// fsmonitor, nothing from the command's environment, and bounded (1 s and 16 MB each; at most 100,000
// paths). Cached (8 repositories) under a fingerprint of the index, HEAD, the refs and the reflog, so a
// commit, a fetch or a checkout is seen at once. Anything unexpected is "unknown": the caller asks.
import { spawnSync } from "node:child_process";
import { type Dirent, readdirSync, readFileSync, type Stats, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { LruMap } from "../../tool/lruMap.ts";

export type PrintablePaths =
  /** Paths relative to the work tree, `/`-separated. */
  { kind: "paths"; paths: readonly string[] } | { kind: "unknown"; reason: string };

const TIMEOUT_MS = 1_000;
const MAX_OUTPUT = 16 << 20;
const MAX_PATHS = 100_000;
const MAX_REF_FOLDERS = 512;
/** Programs git may be found at; the command's own PATH is not used (./node_modules/.bin/git is not git). */
const SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin:/opt/homebrew/bin";
/** Settings that would make git run something or touch the network while it lists. */
const QUIET = [
  "--no-pager",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.untrackedCache=false",
  "-c",
  "log.showSignature=false",
  "-c",
  "log.showRoot=true",
  "-c",
  "core.quotePath=false",
];

const cache = new LruMap<string, PrintablePaths>(8);

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The folder shared by a repository's worktrees (`commondir`), or the git directory itself. */
function commonDir(gitDir: string): string {
  try {
    return resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
  } catch {
    return gitDir;
  }
}

/** What changes when the index, HEAD, a ref or a reflog does; undefined when there are too many ref folders to look at. */
function fingerprint(gitDir: string, common: string): string | undefined {
  const parts: string[] = [];
  const note = (path: string) => {
    const stats = statOrUndefined(path);
    parts.push(stats ? `${stats.ino}:${stats.size}:${stats.mtimeMs}` : "-");
  };
  for (const file of ["index", "HEAD", "logs/HEAD"]) note(join(gitDir, file));
  for (const file of ["packed-refs", "FETCH_HEAD", "ORIG_HEAD", "config"]) note(join(common, file));
  // A ref is written by renaming a lock file into its folder, which changes the folder's mtime.
  const pending = [join(common, "refs"), join(common, "logs", "refs")];
  for (let seen = 0; pending.length > 0; seen++) {
    if (seen > MAX_REF_FOLDERS) return undefined;
    const folder = pending.pop() as string;
    note(folder);
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) if (entry.isDirectory()) pending.push(join(folder, entry.name));
    // Reflogs grow in place: their sizes matter too.
    if (folder.includes(`${join(common, "logs")}`))
      for (const entry of entries) if (entry.isFile()) note(join(folder, entry.name));
  }
  return parts.join("|");
}

/** A partial clone fetches what it lacks from its remote while listing: not something a decision does. */
function isPartialClone(common: string): boolean {
  try {
    return /partialclone|promisor/i.test(readFileSync(join(common, "config"), "utf8"));
  } catch {
    return false;
  }
}

function runGit(gitDir: string, workTree: string, args: readonly string[]): string[] | string {
  const result = spawnSync("git", [...QUIET, `--git-dir=${gitDir}`, `--work-tree=${workTree}`, ...args], {
    cwd: workTree,
    env: {
      PATH: SYSTEM_PATH,
      HOME: homedir(),
      LC_ALL: "C",
      GIT_OPTIONAL_LOCKS: "0",
      GIT_NO_LAZY_FETCH: "1",
      GIT_TERMINAL_PROMPT: "0",
    },
    encoding: "buffer",
    timeout: TIMEOUT_MS,
    killSignal: "SIGKILL",
    maxBuffer: MAX_OUTPUT,
    stdio: ["ignore", "pipe", "ignore"],
  });
  if (result.error) return `git ${args[0]} could not run (${result.error.message})`;
  if (result.status !== 0) return `git ${args[0]} failed (exit ${result.status ?? result.signal})`;
  return result.stdout.toString("utf8").split("\0");
}

const INDEX = ["ls-files", "-z", "--cached"];
const HISTORY = [
  "log",
  "--all",
  "--reflog",
  "--format=",
  "--name-only",
  "-z",
  "--no-renames",
  "--diff-merges=first-parent",
];

function listPaths(gitDir: string, workTree: string, history: boolean): PrintablePaths {
  const common = commonDir(gitDir);
  if (isPartialClone(common)) return { kind: "unknown", reason: "the repository is a partial clone" };
  const paths = new Set<string>();
  for (const args of history ? [INDEX, HISTORY] : [INDEX]) {
    const out = runGit(gitDir, workTree, args);
    if (typeof out === "string") return { kind: "unknown", reason: out };
    for (const line of out) {
      const path = line.replace(/^\n+/, "");
      if (path !== "") paths.add(path);
    }
    if (paths.size > MAX_PATHS)
      return { kind: "unknown", reason: `the repository holds more than ${MAX_PATHS} paths` };
  }
  return { kind: "paths", paths: [...paths] };
}

/**
 * Every path git may print the content of from this repository: its index's, and with `history` also
 * every path a reachable commit or reflog entry ever held; or why they are not known.
 */
export function printablePaths(gitDir: string, workTree: string, history: boolean): PrintablePaths {
  const key = fingerprint(gitDir, commonDir(gitDir));
  const cacheKey = key === undefined ? undefined : `${gitDir}\0${workTree}\0${history}\0${key}`;
  const known = cacheKey === undefined ? undefined : cache.get(cacheKey);
  if (known) return known;
  const found = listPaths(gitDir, workTree, history);
  if (cacheKey !== undefined) cache.set(cacheKey, found);
  return found;
}

/** Empties the cache (tests that change a repository between decisions in the same millisecond). */
export function resetPrintablePathsCache(): void {
  cache.clear();
}
