// ListAgents pages through the session's agents (then other sessions) with an opaque cursor.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createToolUseContext } from "../../tool/createContext.ts";
import { ToolError } from "../../tool/errors.ts";
import { forgetAgents, registerAgent } from "../agent/runningAgents.ts";
import { ListAgentsTool } from "./ListAgentsTool.ts";

const sessionId = randomUUID();
const before = process.env.KEEL_SESSION_SOCKETS;
beforeAll(() => {
  process.env.KEEL_SESSION_SOCKETS = "off";
  for (const [index, status] of (["completed", "running", "failed"] as const).entries())
    registerAgent(sessionId, {
      id: `agent_0000000${index}`,
      ...(index === 0 ? { name: "first" } : {}),
      agentType: "Explore",
      description: `job ${index}`,
      fork: false,
      background: index === 1,
      status,
      ...(index === 2 ? { isolation: "worktree" } : {}),
      startedAt: 1_000 * index,
      lastActivityAt: 1_000 * index + 500,
      send() {},
    });
});
afterAll(() => {
  forgetAgents(sessionId);
  if (before === undefined) delete process.env.KEEL_SESSION_SOCKETS;
  else process.env.KEEL_SESSION_SOCKETS = before;
});

const list = (input: { cursor?: string; limit?: number }) =>
  ListAgentsTool.call(
    input,
    createToolUseContext({ tools: [], sessionId }),
    async () => ({ behavior: "allow" }),
    undefined,
    () => {},
  );

it("pages with a cursor, oldest first, with name, id, type, isolation, state and times", async () => {
  const first = await list({ limit: 2 });
  expect(first.data.total).toBe(3);
  expect(first.data.entries.map((entry) => entry.id)).toEqual(["agent_00000000", "agent_00000001"]);
  expect(first.data.entries[0]).toMatchObject({
    kind: "agent",
    name: "first",
    type: "Explore",
    isolation: "none",
    state: "completed",
    started: new Date(0).toISOString(),
    lastActivity: new Date(500).toISOString(),
  });
  expect(first.data.next_cursor).toBe("o2");
  const second = await list({ limit: 2, cursor: first.data.next_cursor as string });
  expect(second.data.entries.map((entry) => [entry.id, "isolation" in entry ? entry.isolation : ""])).toEqual(
    [["agent_00000002", "worktree"]],
  );
  expect(second.data.next_cursor).toBeUndefined();
});

it("refuses a cursor it did not give", async () => {
  const error = await list({ cursor: "page-2" }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ToolError);
  expect((error as ToolError).message).toContain("leave cursor out to start over");
});
