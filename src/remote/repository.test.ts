// The parent puts its commit on the remote before a worker needs it, or refuses with what to do; real
// git repositories in a temp folder (a bare one as the remote).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolError } from "../tool/errors.ts";
import { deleteBaseRef, prepareRepository } from "./repository.ts";
import { git, type RemoteWorld, remoteWorld } from "./testing/world.ts";

let world: RemoteWorld;
beforeEach(() => {
  world = remoteWorld();
});
afterEach(() => world.cleanup());

/** The remote refuses every push (a server-side policy), as a pre-receive hook says. */
function refusePushes(): void {
  writeFileSync(
    join(world.remote, "hooks", "pre-receive"),
    "#!/bin/sh\necho 'pushes are closed' >&2\nexit 1\n",
    {
      mode: 0o755,
    },
  );
}

const env = () => ({
  ...world.parent.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
});

function commitLocally(name: string): string {
  writeFileSync(join(world.parent.project, name), `${name}\n`);
  git(["add", name], world.parent.project);
  git(
    ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", `Add ${name}`],
    world.parent.project,
  );
  return git(["rev-parse", "HEAD"], world.parent.project).trim();
}

async function refusal(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe("prepareRepository", () => {
  it("pushes an unpushed commit to refs/keel/base/<id>, counts uncommitted changes, and deletes the ref after", async () => {
    const commit = commitLocally("local.txt");
    writeFileSync(join(world.parent.project, "draft.txt"), "not committed\n");
    const prepared = await prepareRepository({
      cwd: world.parent.project,
      remoteName: "origin",
      agentId: "agent_00000001",
      env: env(),
    });
    expect(prepared).toMatchObject({
      url: world.remote,
      commit,
      ref: "refs/keel/base/agent_00000001",
      pushedBaseRef: true,
      uncommitted: 1,
    });
    expect(git(["rev-parse", "refs/keel/base/agent_00000001"], world.remote).trim()).toBe(commit);
    expect(await deleteBaseRef(prepared, env())).toBe(true);
    expect(git(["for-each-ref", "refs/keel/"], world.remote).trim()).toBe("");
  });

  it("a push that fails: a remote branch that holds the commit is used instead", async () => {
    git(["fetch", "--quiet", "origin"], world.parent.project);
    refusePushes();
    const prepared = await prepareRepository({
      cwd: world.parent.project,
      remoteName: "origin",
      agentId: "agent_00000002",
      env: env(),
    });
    expect(prepared).toMatchObject({ ref: "refs/heads/main", pushedBaseRef: false });
  });

  it("a push that fails with the commit on no remote branch: refused, saying to push first", async () => {
    const commit = commitLocally("unpushed.txt");
    refusePushes();
    const error = await refusal(
      prepareRepository({
        cwd: world.parent.project,
        remoteName: "origin",
        agentId: "agent_00000003",
        env: env(),
      }),
    );
    expect(error.code).toBe("remote_repository");
    expect(error.message).toContain(`The commit ${commit.slice(0, 12)} (HEAD) is not on the remote "origin"`);
    expect(error.message).toContain("pushes are closed");
    expect(error.message).toContain("Push your branch to origin, then start the remote agent again.");
  });

  it.each([
    ["outside a repository", "plain", "origin", "is not in a git repository"],
    ["a remote that does not exist", "project", "upstream", 'has no remote "upstream"'],
  ])("refuses %s", async (_name, where, remoteName, message) => {
    const cwd = where === "plain" ? join(world.root, "plain") : world.parent.project;
    mkdirSync(cwd, { recursive: true });
    const error = await refusal(
      prepareRepository({ cwd, remoteName, agentId: "agent_00000004", env: env() }),
    );
    expect(error.message).toContain(message);
  });

  it("a remote given as a relative path is made absolute (it would mean another folder on the worker)", async () => {
    git(["remote", "set-url", "origin", "../../remote.git"], world.parent.project);
    const prepared = await prepareRepository({
      cwd: world.parent.project,
      remoteName: "origin",
      agentId: "agent_00000005",
      env: env(),
    });
    expect(prepared.url).toBe(world.remote);
  });
});
