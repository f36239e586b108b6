// The worker's copies of the repositories its jobs name. One clone per remote URL under `repos/` (a
// cache: fetched again for each job, at most `maxRepos` kept, the least recently used removed beyond
// that), and for each job a git worktree of its own under `jobs/`, checked out at the job's commit on
// the job's branch. When the job ends, what the agent left uncommitted is committed, the branch is
// pushed if it holds new commits, and the worktree and its folder are removed.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage } from "../../tool/errors.ts";
import type { RemoteJob } from "../job.ts";
import { git } from "../repository.ts";

export const DEFAULT_MAX_REPOS = 10;
/** Refuses git transport helpers whatever the worker's own git config says. */
const SAFE_PROTOCOLS = ["-c", "protocol.ext.allow=never", "-c", "protocol.fd.allow=never"];

export interface JobCheckout {
  /** The job's own folder (its worktree and tool results); removed when the job ends. */
  dir: string;
  worktree: string;
  branch: string;
  baseCommit: string;
  repo: string;
}

export interface FinishedCheckout {
  commits: number;
  /** Uncommitted changes the worker committed for the agent. */
  committedForAgent: number;
  branch?: string;
  pushError?: string;
}

/** Serializes git work on one cached clone (fetch and worktree changes take its locks). */
class RepoLocks {
  readonly #tails = new Map<string, Promise<unknown>>();
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    this.#tails.set(
      key,
      next.catch(() => {}),
    );
    return next;
  }
}

export class RepoCache {
  readonly root: string;
  readonly #maxRepos: number;
  readonly #env: NodeJS.ProcessEnv;
  readonly #locks = new RepoLocks();
  readonly #inUse = new Map<string, number>();

  constructor(options: { dir: string; maxRepos?: number; env: NodeJS.ProcessEnv }) {
    this.root = options.dir;
    this.#maxRepos = options.maxRepos ?? DEFAULT_MAX_REPOS;
    this.#env = options.env;
  }

  get reposDir(): string {
    return join(this.root, "repos");
  }

  get jobsDir(): string {
    return join(this.root, "jobs");
  }

  /** At start: job folders left by a worker that was killed are removed, and their worktrees pruned. */
  async removeLeftovers(): Promise<number> {
    await mkdir(this.jobsDir, { recursive: true });
    await mkdir(this.reposDir, { recursive: true });
    const left = await readdir(this.jobsDir);
    await Promise.all(left.map((name) => rm(join(this.jobsDir, name), { recursive: true, force: true })));
    for (const repo of await readdir(this.reposDir))
      await git(["worktree", "prune"], join(this.reposDir, repo), this.#env).catch(() => "");
    return left.length;
  }

  /** A worktree of the job's commit on the job's branch, in a folder of its own. */
  async checkout(job: RemoteJob, runKey: string, signal?: AbortSignal): Promise<JobCheckout> {
    const { url, ref, commit, branch } = job.repository;
    const key = createHash("sha256").update(url).digest("hex").slice(0, 16);
    const repo = join(this.reposDir, key);
    const dir = join(this.jobsDir, runKey);
    const worktree = join(dir, "worktree");
    this.#inUse.set(key, (this.#inUse.get(key) ?? 0) + 1);
    const run = (args: string[], at = repo) => git([...SAFE_PROTOCOLS, ...args], at, this.#env, signal);
    try {
      await mkdir(dir, { recursive: true });
      await mkdir(this.reposDir, { recursive: true });
      await this.#locks.run(key, async () => {
        if (!existsSync(join(repo, ".git"))) {
          await rm(repo, { recursive: true, force: true });
          await run(["clone", "--quiet", "--no-checkout", "--", url, repo], this.reposDir);
        }
        await touch(repo);
        await run(["fetch", "--quiet", "--no-tags", "--", url, `+${ref}:refs/keel/fetched/${runKey}`]);
        await run(["cat-file", "-e", `${commit}^{commit}`]).catch(() => {
          throw new Error(`the commit ${commit} is not on ${ref} of ${url}`);
        });
        await run(["worktree", "add", "--quiet", "-B", branch, worktree, commit]);
        await run(["update-ref", "-d", `refs/keel/fetched/${runKey}`]).catch(() => "");
      });
    } catch (error) {
      this.#release(key);
      await rm(dir, { recursive: true, force: true });
      throw new Error(`could not check out ${commit.slice(0, 12)} of ${url}: ${errorMessage(error)}`);
    }
    return { dir, worktree, branch, baseCommit: commit, repo };
  }

  /** Commits what the agent left, pushes the branch when it holds new commits. */
  async finish(checkout: JobCheckout, job: RemoteJob, worker: string): Promise<FinishedCheckout> {
    const run = (args: string[]) => git([...SAFE_PROTOCOLS, ...args], checkout.worktree, this.#env);
    let committedForAgent = 0;
    const status = await run(["status", "--porcelain", "--untracked-files=all"]).catch(() => "");
    const changed = status.split("\n").filter((line) => line.trim() !== "").length;
    if (changed > 0) {
      const identity = (await run(["config", "user.email"]).catch(() => "")).trim()
        ? []
        : ["-c", `user.name=keel worker ${worker}`, "-c", "user.email=keel-worker@localhost"];
      await run(["add", "--all"]);
      await run([
        ...identity,
        "commit",
        "--quiet",
        "--no-verify",
        "-m",
        `Work ${job.agentId} left uncommitted (committed by keel worker ${worker})`,
      ]).then(
        () => {
          committedForAgent = changed;
        },
        () => {},
      );
    }
    const commits =
      Number((await run(["rev-list", "--count", `${checkout.baseCommit}..HEAD`]).catch(() => "0")).trim()) ||
      0;
    if (commits === 0) return { commits, committedForAgent };
    try {
      await run([
        "push",
        "--quiet",
        "--no-verify",
        "--",
        job.repository.url,
        `HEAD:refs/heads/${checkout.branch}`,
      ]);
      return { commits, committedForAgent, branch: checkout.branch };
    } catch (error) {
      return {
        commits,
        committedForAgent,
        pushError: errorMessage(error).replace(/\s+/g, " ").slice(0, 500),
      };
    }
  }

  /** Removes the job's worktree, its local branch and folder; then trims the cache to its bound. */
  async remove(checkout: JobCheckout): Promise<void> {
    const key = checkout.repo.slice(this.reposDir.length + 1);
    await this.#locks.run(key, async () => {
      await git(["worktree", "remove", "--force", checkout.worktree], checkout.repo, this.#env).catch(
        () => "",
      );
      await rm(checkout.dir, { recursive: true, force: true });
      await git(["worktree", "prune"], checkout.repo, this.#env).catch(() => "");
      await git(["branch", "-D", checkout.branch], checkout.repo, this.#env).catch(() => "");
    });
    this.#release(key);
    await this.#trim();
  }

  #release(key: string): void {
    const count = (this.#inUse.get(key) ?? 1) - 1;
    if (count <= 0) this.#inUse.delete(key);
    else this.#inUse.set(key, count);
  }

  /** Beyond `maxRepos` clones, the least recently used ones not in use are removed. */
  async #trim(): Promise<void> {
    const names = await readdir(this.reposDir).catch(() => [] as string[]);
    if (names.length <= this.#maxRepos) return;
    const aged = await Promise.all(
      names.map(async (name) => ({
        name,
        used: await stat(join(this.reposDir, name, ".git", "keel-used"))
          .then((stats) => stats.mtimeMs)
          .catch(() => 0),
      })),
    );
    aged.sort((a, b) => a.used - b.used);
    let excess = names.length - this.#maxRepos;
    for (const { name } of aged) {
      if (excess <= 0) break;
      if (this.#inUse.has(name)) continue;
      await this.#locks.run(name, () => rm(join(this.reposDir, name), { recursive: true, force: true }));
      excess--;
    }
  }
}

/** Marks a clone as used now (the cache removes the least recently used). */
async function touch(repo: string): Promise<void> {
  const stamp = join(repo, ".git", "keel-used");
  const now = new Date();
  await utimes(stamp, now, now).catch(() => writeFile(stamp, ""));
}
