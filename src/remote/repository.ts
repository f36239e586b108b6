// The parent's side of the repository: which remote URL both machines reach, which commit the agent
// starts from, and making sure that commit is on the remote. The commit is pushed to a ref of its own
// (refs/keel/base/<agent id>), which the parent deletes when the job has ended; when that push fails
// and no branch on the remote holds the commit, the spawn is refused with what to do.
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { ToolError } from "../tool/errors.ts";
import { baseRefName, repositoryUrlProblem } from "./job.ts";

const GIT_TIMEOUT_MS = 60_000;

/** git with no prompt for a password (the call would hang), no optional locks, a bound and a signal. */
export function git(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      "git",
      args,
      {
        cwd,
        timeout: GIT_TIMEOUT_MS,
        maxBuffer: 8 * 1024 * 1024,
        ...(signal ? { signal } : {}),
        env: {
          ...env,
          GIT_TERMINAL_PROMPT: "0",
          GIT_OPTIONAL_LOCKS: "0",
          GIT_SSH_COMMAND: env.GIT_SSH_COMMAND ?? "ssh -o BatchMode=yes",
          // Transport helpers run programs named by the URL.
          GIT_ALLOW_PROTOCOL: env.GIT_ALLOW_PROTOCOL ?? "file:git:http:https:ssh",
        },
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args[0]}: ${String(stderr).trim() || error.message}`));
        else resolvePromise(String(stdout));
      },
    );
  });
}

export interface ParentRepository {
  root: string;
  /** The remote URL, as the worker will use it (a local path made absolute). */
  url: string;
  remoteName: string;
  commit: string;
  /** A ref on the remote that holds the commit. */
  ref: string;
  /** True when `ref` is the ref this spawn pushed (and deletes later). */
  pushedBaseRef: boolean;
  /** Uncommitted changes in the parent's checkout, which the remote agent does not get. */
  uncommitted: number;
}

function refuse(message: string): ToolError {
  return new ToolError("remote_repository", message);
}

/** Finds the repository, its remote and commit, and puts the commit on the remote. */
export async function prepareRepository(args: {
  cwd: string;
  remoteName: string;
  agentId: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}): Promise<ParentRepository> {
  const { cwd, env, signal, remoteName } = args;
  const run = (gitArgs: string[], at = cwd) => git(gitArgs, at, env, signal);
  let root: string;
  try {
    root = (await run(["rev-parse", "--show-toplevel"])).trim();
  } catch {
    throw refuse(
      `isolation: "remote" sends the agent a git commit to start from, and ${cwd} is not in a git repository. Run the agent without isolation, or in a repository with a remote the workers can reach.`,
    );
  }
  let commit: string;
  try {
    commit = (await run(["rev-parse", "--verify", "HEAD"], root)).trim();
  } catch {
    throw refuse(`The repository at ${root} has no commit yet; commit first, then start the remote agent.`);
  }
  let url: string;
  try {
    url = (await run(["remote", "get-url", "--push", remoteName], root)).trim();
  } catch {
    throw refuse(
      `The repository at ${root} has no remote "${remoteName}". Add one both this machine and the workers reach (git remote add ${remoteName} <url>), or name another with settings agents.remote.gitRemote.`,
    );
  }
  // A relative path would mean another folder on the worker.
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(url) && !/^[^/]+:/.test(url)) url = resolve(root, url);
  const problem = repositoryUrlProblem(url);
  if (problem) throw refuse(`Remote "${remoteName}": ${problem}`);
  const status = await run(["status", "--porcelain"], root).catch(() => "");
  const uncommitted = status.split("\n").filter((line) => line.trim() !== "").length;
  const ref = baseRefName(args.agentId);
  try {
    await run(["push", "--quiet", "--no-verify", remoteName, `${commit}:${ref}`], root);
    return { root, url, remoteName, commit, ref, pushedBaseRef: true, uncommitted };
  } catch (error) {
    const holder = await remoteBranchHolding(run, root, remoteName, commit);
    if (holder) return { root, url, remoteName, commit, ref: holder, pushedBaseRef: false, uncommitted };
    throw refuse(
      `The commit ${commit.slice(0, 12)} (HEAD) is not on the remote "${remoteName}" (no branch there holds it) and pushing it failed: ${(error as Error).message.replace(/\s+/g, " ").slice(0, 400)}. Push your branch to ${remoteName}, then start the remote agent again.`,
    );
  }
}

/** A branch of the remote (as last fetched) that holds the commit, as the remote names it. */
async function remoteBranchHolding(
  run: (args: string[], at?: string) => Promise<string>,
  root: string,
  remoteName: string,
  commit: string,
): Promise<string | undefined> {
  const listed = await run(
    ["for-each-ref", "--contains", commit, "--format=%(refname)", `refs/remotes/${remoteName}/`],
    root,
  ).catch(() => "");
  const tracking = listed
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line !== "" && !line.endsWith("/HEAD"));
  return tracking ? `refs/heads/${tracking.slice(`refs/remotes/${remoteName}/`.length)}` : undefined;
}

/** Deletes the base ref this spawn pushed; a failure is left for the person (the report names the ref). */
export async function deleteBaseRef(repository: ParentRepository, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (!repository.pushedBaseRef) return true;
  // Bounded: the task's end (and a session's exit) waits for it.
  return git(
    ["push", "--quiet", "--no-verify", repository.remoteName, `:${repository.ref}`],
    repository.root,
    env,
    AbortSignal.timeout(15_000),
  )
    .then(() => true)
    .catch(() => false);
}
