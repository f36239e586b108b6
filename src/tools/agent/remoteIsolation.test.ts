// `isolation: "remote"` at the Agent tool: what it refuses before touching the queue, and that starting
// one needs permission (it pushes a commit and sends the task to another machine). The queue itself is
// tested end to end in src/cli/commands/worker.test.ts.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scriptedAgent } from "../../agent/testing/harness.ts";
import { decidePermission } from "../../permissions/engine.ts";
import { resolveRemoteQueue } from "../../remote/config.ts";
import type { Tool } from "../../tool/Tool.ts";
import { createAgentTool } from "./AgentTool.ts";

const base = mkdtempSync(join(tmpdir(), "keel-agent-remote-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function session(remoteAgents: unknown, mode: "default" | "plan" | "bypassPermissions" = "default") {
  const root = join(base, String(Math.random()).slice(2));
  mkdirSync(root, { recursive: true });
  const tool = createAgentTool({ projectRoot: root, env: { KEEL_HOME: root } }) as Tool;
  const scripted = await scriptedAgent({
    protocol: "anthropic",
    script: [],
    tools: [tool],
    session: { cwd: root, mode, ...(remoteAgents === undefined ? {} : { remoteAgents }) },
  });
  return { tool, context: scripted.agent.context, close: () => scripted.close() };
}

const remote = (extra: Record<string, unknown> = {}) => ({
  description: "remote task",
  prompt: "do it elsewhere",
  isolation: "remote",
  ...extra,
});

const configured = resolveRemoteQueue({ queue: "redis://queue.internal:6379" }, {});

describe("Agent with isolation: remote", () => {
  it.each<[string, unknown, Record<string, unknown>, string]>([
    ["no queue configured", resolveRemoteQueue(undefined, {}), {}, "Remote agents need a job queue"],
    [
      "a queue misconfigured",
      resolveRemoteQueue({ queue: "queue.internal:6379" }, {}),
      {},
      '"queue.internal:6379" is not a Redis URL',
    ],
    ["inside a remote agent (no queue there)", undefined, {}, "Remote agents are not available here"],
    ["a fork", configured, { subagent_type: "fork" }, "cannot run remotely"],
  ])("refuses %s before touching anything", async (_name, remoteAgents, extra, message) => {
    const { tool, context, close } = await session(remoteAgents);
    try {
      const checked = await tool.validateInput?.(remote(extra), context);
      expect(checked).toMatchObject({ result: false });
      expect((checked as { message: string }).message).toContain(message);
    } finally {
      await close();
    }
  });

  it("with a queue: valid, and starting it asks (it pushes a commit and sends the task away)", async () => {
    const { tool, context, close } = await session(configured);
    try {
      expect(await tool.validateInput?.(remote(), context)).toEqual({ result: true });
      const decision = await decidePermission(tool, remote(), context);
      expect(decision.behavior).toBe("ask");
      expect((decision as { message: string }).message).toContain(
        'the queue "keel-agents" at redis://queue.internal:6379',
      );
      // A local agent is still the tool's own allow.
      expect((await decidePermission(tool, { description: "d", prompt: "p" }, context)).behavior).toBe(
        "allow",
      );
    } finally {
      await close();
    }
  });

  it.each([
    ["plan mode refuses it (it changes things)", "plan", "deny"],
    ["bypassPermissions allows it", "bypassPermissions", "allow"],
  ] as const)("%s", async (_name, mode, behavior) => {
    const { tool, context, close } = await session(configured, mode);
    try {
      expect((await decidePermission(tool, remote(), context)).behavior).toBe(behavior);
    } finally {
      await close();
    }
  });
});
