// Where remote agents' jobs go: the environment first, then settings `agents.remote`; every mistake a
// message that says what to write instead, and no password in any message.
import { describe, expect, it } from "vitest";
import { hidePassword, parseRedisUrl, resolveRemoteQueue } from "./config.ts";

describe("parseRedisUrl", () => {
  it.each([
    ["redis://127.0.0.1:6379", "redis://127.0.0.1:6379"],
    ["redis://queue.internal:6379/2", "redis://queue.internal:6379/2"],
    ["rediss://:hunter22@queue.internal:6380", "rediss://:***@queue.internal:6380"],
    ["redis://keel:hunter22@queue.internal", "redis://keel:***@queue.internal"],
  ])("accepts %s (shown as %s)", (url, shown) => {
    expect(parseRedisUrl(url)).toEqual({ url, displayUrl: shown });
  });

  it.each([
    ["queue.internal:6379", "is not a Redis URL"],
    ["http://queue.internal:6379", "is not a Redis URL"],
    ["redis://", "names no host"],
    ["redis://host:6379/queue", "the path must be a database number"],
    ["not a url at all", "is not a URL"],
  ])("refuses %s", (url, problem) => {
    const parsed = parseRedisUrl(url);
    expect("problem" in parsed && parsed.problem).toContain(problem);
  });

  it("never repeats a password it refuses", () => {
    const parsed = parseRedisUrl("http://user:hunter22@host");
    expect("problem" in parsed && parsed.problem).not.toContain("hunter22");
    expect(hidePassword("redis://:p@ss@host")).not.toContain("p@ss");
  });
});

describe("resolveRemoteQueue", () => {
  it.each([
    [
      "settings: a URL",
      { queue: "redis://q:6379", from: "/home/u/.keel/settings.json" },
      {},
      {
        url: "redis://q:6379",
        name: "keel-agents",
        from: "agents.remote.queue in /home/u/.keel/settings.json",
      },
    ],
    [
      "settings: url and name, claim timeout, git remote",
      { queue: { url: "redis://q:6379/1", name: "team-a" }, claimTimeoutSeconds: 30, gitRemote: "upstream" },
      {},
      { name: "team-a", claimTimeoutMs: 30_000, gitRemote: "upstream" },
    ],
    [
      "the environment wins over settings",
      { queue: "redis://settings:6379" },
      { KEEL_REMOTE_QUEUE: "redis://env:6379", KEEL_REMOTE_QUEUE_NAME: "from-env" },
      {
        url: "redis://env:6379",
        name: "from-env",
        from: "KEEL_REMOTE_QUEUE",
        claimTimeoutMs: 120_000,
        gitRemote: "origin",
      },
    ],
  ])("%s", (_name, settings, env, expected) => {
    const resolved = resolveRemoteQueue(settings, env);
    expect(resolved.ok).toBe(true);
    if (resolved.ok) expect(resolved.config).toMatchObject(expected);
  });

  it.each([
    ["nothing set", {}, {}, false, "Remote agents need a job queue"],
    [
      "a bad URL",
      { queue: "localhost:6379" },
      {},
      true,
      'agents.remote.queue in settings: "localhost:6379" is not a Redis URL',
    ],
    [
      "a bad queue name",
      {},
      { KEEL_REMOTE_QUEUE: "redis://q", KEEL_REMOTE_QUEUE_NAME: "a:b" },
      true,
      'the queue name "a:b"',
    ],
  ])("%s", (_name, settings, env, configured, problem) => {
    const resolved = resolveRemoteQueue(settings, env);
    expect(resolved.ok).toBe(false);
    if (!resolved.ok) {
      expect(resolved.configured).toBe(configured);
      expect(resolved.problem).toContain(problem);
    }
  });
});
