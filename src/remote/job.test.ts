// The worker trusts nothing in a job it did not check: the schema, and a repository URL git may use
// without running a program the URL names. Nothing here runs git.
import { describe, expect, it } from "vitest";
import { parseRemoteJob, type RemoteJob, repositoryUrlProblem } from "./job.ts";

describe("repositoryUrlProblem", () => {
  it.each([
    "https://github.com/team/project.git",
    "http://git.internal/project.git",
    "ssh://git@git.internal:2222/team/project.git",
    "git://git.internal/project.git",
    "file:///srv/git/project.git",
    "git@github.com:team/project.git",
    "git.internal:team/project.git",
    "/srv/git/project.git",
  ])("accepts %s", (url) => {
    expect(repositoryUrlProblem(url)).toBeUndefined();
  });

  it.each([
    ["ext::true", "transport helpers"],
    ["fd::3", "transport helpers"],
    ["https://host/x::y", "transport helpers"],
    ["--upload-pack=true", "starts with '-'"],
    ["-c", "starts with '-'"],
    ["https://host/a\nb", "control characters"],
    ["relative/path.git", "would not read it as a remote repository"],
    ["ftp://host/project.git", "would not read it as a remote repository"],
  ])("refuses %s", (url, why) => {
    expect(repositoryUrlProblem(url)).toContain(why);
  });
});

function job(patch: Partial<RemoteJob> = {}): RemoteJob {
  return {
    version: 1,
    agentId: "agent_0123abcd",
    description: "Do it",
    prompt: "Do the task",
    agentType: {
      name: "general-purpose",
      instructions: "You are an agent.",
      tools: "*",
      disallowedTools: [],
    },
    model: { name: "claude-test", provider: "anthropic" },
    repository: {
      url: "https://git.internal/project.git",
      commit: "0123456789abcdef0123456789abcdef01234567",
      ref: "refs/keel/base/agent_0123abcd",
      branch: "keel/agent_0123abcd",
    },
    policy: { mode: "default", allow: { cliArg: ["Read"] }, deny: {}, ask: {}, canAsk: false },
    parent: { sessionId: "s", host: "h" },
    createdAt: "2026-11-01T00:00:00.000Z",
    ...patch,
  };
}

describe("parseRemoteJob", () => {
  it("takes a well-formed job", () => {
    expect(parseRemoteJob(job())).toEqual({ ok: true, job: job() });
  });

  it.each<[string, unknown, string]>([
    ["not an object", "hello", "the job is not a Keel remote agent job"],
    ["another version", { ...job(), version: 2 }, "version"],
    [
      "a key it does not know (say, an API key)",
      { ...job(), apiKey: "sk-x" },
      "the job is not a Keel remote agent job",
    ],
    ["an unknown mode", { ...job(), policy: { ...job().policy, mode: "yolo" } }, "policy.mode"],
    [
      "an unknown rule source",
      { ...job(), policy: { ...job().policy, allow: { anywhere: ["Bash"] } } },
      "policy.allow",
    ],
    [
      "a short commit",
      { ...job(), repository: { ...job().repository, commit: "abc123" } },
      "repository.commit",
    ],
    [
      "a branch outside keel/",
      { ...job(), repository: { ...job().repository, branch: "main" } },
      "repository.branch",
    ],
    [
      "a ref with ..",
      { ...job(), repository: { ...job().repository, ref: "refs/heads/../x" } },
      "repository.ref",
    ],
    [
      "a transport helper URL",
      { ...job(), repository: { ...job().repository, url: "ext::true" } },
      "transport helpers",
    ],
  ])("refuses %s", (_name, data, problem) => {
    const parsed = parseRemoteJob(data);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toContain(problem);
  });
});
