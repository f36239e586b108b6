// Facts about where the agent runs, for the system prompt: folder, platform, date, and a short git
// summary (branch, changed files, recent commits). Git is asked with a timeout and may be missing.
import { execFile } from "node:child_process";
import { release } from "node:os";

export interface EnvironmentFacts {
  cwd: string;
  additionalDirectories: string[];
  platform: string;
  osVersion: string;
  shell: string;
  date: string;
  git?: GitSummary;
}

export interface GitSummary {
  branch: string;
  /** `git status --short` lines, capped. */
  changes: string[];
  changeCount: number;
  recentCommits: string[];
}

const MAX_CHANGES = 20;

function git(args: string[], cwd: string, signal?: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      "git",
      args,
      {
        cwd,
        timeout: 2000,
        maxBuffer: 1024 * 1024,
        ...(signal ? { signal } : {}),
        env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" },
      },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
  });
}

export async function gitSummary(cwd: string, signal?: AbortSignal): Promise<GitSummary | undefined> {
  const inside = await git(["rev-parse", "--is-inside-work-tree"], cwd, signal);
  if (inside?.trim() !== "true") return undefined;
  const [branch, status, log] = await Promise.all([
    git(["branch", "--show-current"], cwd, signal),
    git(["status", "--short"], cwd, signal),
    git(["log", "--oneline", "-n", "5"], cwd, signal),
  ]);
  const changes = (status ?? "").split("\n").filter((line) => line.trim() !== "");
  return {
    branch: branch?.trim() || "(detached HEAD)",
    changes: changes.slice(0, MAX_CHANGES),
    changeCount: changes.length,
    recentCommits: (log ?? "").split("\n").filter((line) => line.trim() !== ""),
  };
}

export async function environmentFacts(
  cwd: string,
  additionalDirectories: readonly string[] = [],
  now: Date = new Date(),
): Promise<EnvironmentFacts> {
  const summary = await gitSummary(cwd);
  return {
    cwd,
    additionalDirectories: [...additionalDirectories],
    platform: process.platform,
    osVersion: release(),
    shell: process.env.SHELL ?? "unknown",
    date: now.toISOString().slice(0, 10),
    ...(summary ? { git: summary } : {}),
  };
}

export function formatEnvironment(facts: EnvironmentFacts): string {
  const lines = [
    "# Environment",
    `Working directory: ${facts.cwd}`,
    ...(facts.additionalDirectories.length
      ? [`Additional working directories: ${facts.additionalDirectories.join(", ")}`]
      : []),
    `Platform: ${facts.platform} (${facts.osVersion}), shell ${facts.shell}`,
    `Today's date: ${facts.date}`,
  ];
  const summary = facts.git;
  if (!summary) lines.push("Git: not a git repository");
  else {
    lines.push(`Git branch: ${summary.branch}`);
    if (summary.changeCount === 0) lines.push("Git status: clean");
    else {
      const more =
        summary.changeCount > summary.changes.length
          ? `\n  … and ${summary.changeCount - summary.changes.length} more`
          : "";
      lines.push(`Git status (${summary.changeCount} changed):\n  ${summary.changes.join("\n  ")}${more}`);
    }
    if (summary.recentCommits.length) lines.push(`Recent commits:\n  ${summary.recentCommits.join("\n  ")}`);
  }
  return lines.join("\n");
}
