// Which repository git uses from a folder, found the way git's own discovery finds it: walking up, a
// `.git` folder that is a repository, a `.git` file pointing elsewhere (`gitdir: ...`), or, when the
// folder's `.git` is missing or not a repository (an empty `.git` folder included), the folder itself
// if it is laid out like a bare repository. git obeys that repository's config (core.fsmonitor,
// diff.external, textconv drivers, aliases...), so only a repository inside a protected `.git` folder
// (its config cannot be written without a person's approval) is the project's own.
import { readFileSync, type Stats, statSync } from "node:fs";
import { dirname, isAbsolute, resolve, sep } from "node:path";
import { lstatOrUndefined, resolveSymlinks } from "../../permissions/paths.ts";

export interface Repository {
  /** The git directory git would use. */
  gitDir: string;
  /** The top of its work tree, when it has one (the folder holding `.git`). */
  workTree?: string;
  /** Inside a `.git` folder: its config is as protected as the project's own. */
  trusted: boolean;
}

/** A folder laid out like a git directory (HEAD plus objects/ and refs/, or a commondir file). */
export function looksLikeGitDir(dir: string): boolean {
  if (!lstatOrUndefined(resolve(dir, "HEAD"))) return false;
  if (lstatOrUndefined(resolve(dir, "commondir"))) return true;
  return ["objects", "refs"].some((entry) => lstatOrUndefined(resolve(dir, entry)) !== undefined);
}

/** A git directory inside a `.git` folder (the project's own, its worktrees and submodules). */
export function isProtectedGitDir(gitDir: string): boolean {
  const forms = [resolve(gitDir), resolveSymlinks(resolve(gitDir))];
  return forms.every((form) => form.split(sep).includes(".git"));
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function gitFileTarget(file: string): string | undefined {
  try {
    const text = readFileSync(file, "utf8");
    const match = text.match(/^gitdir:\s*(.+?)\s*$/m);
    if (!match) return undefined;
    const target = match[1] as string;
    return isAbsolute(target) ? target : resolve(dirname(file), target);
  } catch {
    return undefined;
  }
}

/** The repository git uses when started in `start` (no GIT_DIR, no --git-dir), or undefined. */
export function discoverRepository(start: string): Repository | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const dotGit = resolve(dir, ".git");
    // git follows a .git symlink, to a folder or to a `gitdir:` file.
    const stats = statOrUndefined(dotGit) ?? lstatOrUndefined(dotGit);
    if (stats?.isFile()) {
      const target = gitFileTarget(dotGit);
      // A .git file git cannot follow stops discovery with an error: nothing runs.
      if (target === undefined || !looksLikeGitDir(target)) return undefined;
      return { gitDir: target, workTree: dir, trusted: isProtectedGitDir(target) };
    }
    if (stats && looksLikeGitDir(dotGit))
      return { gitDir: dotGit, workTree: dir, trusted: isProtectedGitDir(dotGit) };
    if (looksLikeGitDir(dir)) return { gitDir: dir, trusted: isProtectedGitDir(dir) };
    if (dirname(dir) === dir) return undefined;
  }
}
