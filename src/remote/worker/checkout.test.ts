// The worker's copies of repositories: a worktree per job at the job's commit on its branch; what the
// agent left uncommitted committed, the branch pushed; the worktree removed; the clone cache bounded;
// folders left by a killed worker removed. Real git, a bare repository as the remote.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RemoteJob } from "../job.ts";
import { git, makeHome, type RemoteWorld, remoteWorld } from "../testing/world.ts";
import { RepoCache } from "./checkout.ts";

let world: RemoteWorld;
let env: NodeJS.ProcessEnv;
let dir: string;
beforeEach(() => {
  world = remoteWorld();
  const home = makeHome(join(world.root, "worker-home"));
  env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: "1" };
  dir = join(world.root, "worker");
});
afterEach(() => world.cleanup());

function jobFor(url: string, agentId = "agent_0000aaaa"): RemoteJob {
  const commit = git(["rev-parse", "main"], url).trim();
  return {
    version: 1,
    agentId,
    description: "d",
    prompt: "p",
    agentType: { name: "general-purpose", instructions: "", tools: "*", disallowedTools: [] },
    model: { name: "m", provider: "anthropic" },
    repository: { url, commit, ref: "refs/heads/main", branch: `keel/${agentId}` },
    policy: { mode: "default", allow: {}, deny: {}, ask: {}, canAsk: false },
    parent: { sessionId: "s", host: "h" },
    createdAt: "now",
  };
}

describe("RepoCache", () => {
  it("checks the commit out on the job's branch, commits what is left, pushes the branch, removes the worktree", async () => {
    const repos = new RepoCache({ dir, env });
    await repos.removeLeftovers();
    const job = jobFor(world.remote);
    const checkout = await repos.checkout(job, "agent_0000aaaa-run1");
    expect(git(["rev-parse", "HEAD"], checkout.worktree).trim()).toBe(job.repository.commit);
    expect(git(["branch", "--show-current"], checkout.worktree).trim()).toBe("keel/agent_0000aaaa");
    writeFileSync(join(checkout.worktree, "left.txt"), "left behind\n");
    const finished = await repos.finish(checkout, job, "w1");
    expect(finished).toEqual({ commits: 1, committedForAgent: 1, branch: "keel/agent_0000aaaa" });
    expect(git(["log", "-1", "--format=%s", "keel/agent_0000aaaa"], world.remote).trim()).toBe(
      "Work agent_0000aaaa left uncommitted (committed by keel worker w1)",
    );
    await repos.remove(checkout);
    expect(existsSync(checkout.dir)).toBe(false);
    expect(readdirSync(repos.jobsDir)).toEqual([]);
  });

  it("pushes nothing when the agent changed nothing", async () => {
    const repos = new RepoCache({ dir, env });
    const job = jobFor(world.remote, "agent_0000bbbb");
    const checkout = await repos.checkout(job, "run");
    expect(await repos.finish(checkout, job, "w1")).toEqual({ commits: 0, committedForAgent: 0 });
    await repos.remove(checkout);
    expect(git(["for-each-ref", "refs/heads/keel/"], world.remote).trim()).toBe("");
  });

  it("a commit that is not on the named ref: a clear error, and no folder left", async () => {
    const repos = new RepoCache({ dir, env });
    const job = jobFor(world.remote);
    job.repository.commit = "0123456789abcdef0123456789abcdef01234567";
    await expect(repos.checkout(job, "run")).rejects.toThrow(
      `the commit 0123456789abcdef0123456789abcdef01234567 is not on refs/heads/main of ${world.remote}`,
    );
    expect(readdirSync(repos.jobsDir)).toEqual([]);
  });

  it("keeps at most maxRepos clones, dropping the least recently used", async () => {
    const second = join(world.root, "second.git");
    git(["clone", "--quiet", "--bare", world.remote, second], world.root);
    const repos = new RepoCache({ dir, env, maxRepos: 1 });
    for (const url of [world.remote, second]) {
      const checkout = await repos.checkout(jobFor(url), "run");
      await repos.remove(checkout);
    }
    const kept = () =>
      readdirSync(repos.reposDir).map((name) =>
        git(["remote", "get-url", "origin"], join(repos.reposDir, name)).trim(),
      );
    expect(kept()).toEqual([second]);
    const checkout = await repos.checkout(jobFor(world.remote), "again");
    await repos.remove(checkout);
    expect(kept()).toEqual([world.remote]);
  });

  it("at start, removes the job folders a killed worker left", async () => {
    mkdirSync(join(dir, "jobs", "agent_dead-run", "worktree"), { recursive: true });
    const repos = new RepoCache({ dir, env });
    expect(await repos.removeLeftovers()).toBe(1);
    expect(readdirSync(repos.jobsDir)).toEqual([]);
  });
});
