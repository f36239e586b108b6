// Running git for the worktree tools: no prompts, no optional locks, a timeout, the caller's signal,
// and git's own message in the error.
import { execFile } from "node:child_process";

const GIT_TIMEOUT_MS = 30_000;

export function runGit(args: string[], cwd: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      "git",
      args,
      {
        cwd,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: 4 * 1024 * 1024,
        ...(signal ? { signal } : {}),
        env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0" },
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args.join(" ")}: ${String(stderr).trim() || error.message}`));
        else resolvePromise(String(stdout));
      },
    );
  });
}

/** What a worktree holds that removing it would lose: uncommitted paths and commits since `baseCommit`. */
export async function worktreeChanges(
  path: string,
  baseCommit: string,
  signal?: AbortSignal,
): Promise<{ changedFiles: string[]; commits: number }> {
  const status = await runGit(["status", "--porcelain", "--untracked-files=all"], path, signal);
  const changedFiles = status
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.slice(3));
  const count = await runGit(["rev-list", "--count", `${baseCommit}..HEAD`], path, signal);
  return { changedFiles, commits: Number(count.trim()) || 0 };
}
