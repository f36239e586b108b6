// `isolation: "worktree"`: the sub-agent works in a fresh `git worktree` on a new branch, so its edits
// never touch the checkout the person is in. The worktree goes in a temp folder, not the repository's
// `.keel/worktrees/`, because every path under a `.keel` folder is protected and each edit would ask.
// A worktree left without changes or commits is removed with its branch; otherwise both are kept.
import { createHash } from "node:crypto";
import { mkdir, rmdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { ToolError } from "../../tool/errors.ts";
import { runGit } from "../shared/git.ts";

export interface Worktree {
  path: string;
  branch: string;
  repoRoot: string;
  /** The commit the branch started from. */
  baseCommit: string;
}

export interface WorktreeResult {
  path: string;
  branch: string;
  /** False when the agent changed nothing and the worktree and branch were removed. */
  kept: boolean;
  changedFiles: number;
  commits: number;
}

const git = runGit;

export function worktreeBranch(agentId: string): string {
  return `keel/${agentId}`;
}

/** Creates the worktree for an agent; refuses clearly outside a git repository or one without commits. */
export async function createWorktree(cwd: string, agentId: string, signal?: AbortSignal): Promise<Worktree> {
  let repoRoot: string;
  try {
    repoRoot = (await git(["rev-parse", "--show-toplevel"], cwd, signal)).trim();
  } catch {
    throw new ToolError(
      "worktree_failed",
      `isolation: "worktree" needs a git repository, and ${cwd} is not inside one. Run the agent without isolation, or in a git repository.`,
    );
  }
  let baseCommit: string;
  try {
    baseCommit = (await git(["rev-parse", "--verify", "HEAD"], repoRoot, signal)).trim();
  } catch {
    throw new ToolError(
      "worktree_failed",
      `isolation: "worktree" starts a branch from HEAD, and the repository at ${repoRoot} has no commit yet. Commit first, or run the agent without isolation.`,
    );
  }
  const slug = `${basename(repoRoot).replace(/[^A-Za-z0-9_.-]/g, "-")}-${createHash("sha256").update(repoRoot).digest("hex").slice(0, 8)}`;
  const parent = join(tmpdir(), "keel-worktrees", slug);
  await mkdir(parent, { recursive: true });
  const path = join(parent, agentId);
  const branch = worktreeBranch(agentId);
  try {
    await git(["worktree", "add", "-b", branch, path, baseCommit], repoRoot, signal);
  } catch (error) {
    throw new ToolError(
      "worktree_failed",
      `Could not create a git worktree for the agent: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return { path, branch, repoRoot, baseCommit };
}

/** After the agent: keeps a worktree that holds work, removes one that does not. */
export async function finishWorktree(worktree: Worktree): Promise<WorktreeResult> {
  const status = await git(["status", "--porcelain"], worktree.path).catch(() => "?");
  const changedFiles = status.split("\n").filter((line) => line.trim() !== "").length;
  const commits = Number(
    (
      await git(["rev-list", "--count", `${worktree.baseCommit}..HEAD`], worktree.path).catch(() => "1")
    ).trim(),
  );
  const result = { path: worktree.path, branch: worktree.branch, changedFiles, commits };
  if (changedFiles > 0 || commits > 0) return { ...result, kept: true };
  try {
    await git(["worktree", "remove", "--force", worktree.path], worktree.repoRoot);
    await git(["branch", "-D", worktree.branch], worktree.repoRoot);
    await removeEmptyParents(worktree.path);
    return { ...result, kept: false };
  } catch {
    return { ...result, kept: true };
  }
}

/** The repository's folder under keel-worktrees, then keel-worktrees itself, once no worktree is left in them. */
async function removeEmptyParents(path: string): Promise<void> {
  for (const folder of [dirname(path), dirname(dirname(path))]) {
    try {
      await rmdir(folder);
    } catch {
      return; // another agent's worktree is still there
    }
  }
}
