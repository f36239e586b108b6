import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scriptedAgent } from "../../agent/testing/harness.ts";
import { text, toolUse } from "../../agent/testing/script.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import { ToolError } from "../../tool/errors.ts";
import type { Tool } from "../../tool/Tool.ts";
import { createAgentTool } from "../agent/AgentTool.ts";
import { type AgentStatus, registerAgent } from "../agent/runningAgents.ts";
import { agentIdsIn, byPrompt, conversationText, routedScript } from "../agent/testing.ts";
import { GlobTool } from "../glob/GlobTool.ts";
import { TaskOutputTool } from "../task-output/TaskOutputTool.ts";
import { SendMessageTool } from "./SendMessageTool.ts";

const base = mkdtempSync(join(tmpdir(), "keel-send-message-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("SendMessage to a running sub-agent", () => {
  it("queues the message into the agent's next model request", async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let taskId = "";
    const script = routedScript([
      {
        name: "main",
        match: byPrompt("MAIN"),
        turns: [
          {
            blocks: [
              toolUse("Agent", {
                description: "work",
                prompt: "WORKER go",
                run_in_background: true,
                name: "worker",
              }),
            ],
          },
          { blocks: [toolUse("SendMessage", { to: "worker", message: "PING-123: also check the tests" })] },
          (request) => {
            // The message has been sent: let the worker's first answer finish.
            release();
            taskId = agentIdsIn(request)[0]!;
            return { blocks: [toolUse("TaskOutput", { task_id: taskId, block: true, timeout: 20_000 })] };
          },
          { blocks: [text("done")] },
        ],
      },
      {
        name: "worker",
        match: byPrompt("WORKER"),
        turns: [
          { blocks: [toolUse("Glob", { pattern: "*.none" })], beforeStop: () => released },
          { blocks: [text("worker: checked the tests too")] },
        ],
      },
    ]);
    const tools = [
      GlobTool,
      createAgentTool({ projectRoot: base, env: { KEEL_HOME: base } }),
      SendMessageTool,
      TaskOutputTool,
    ] as Tool[];
    const run = await scriptedAgent({ protocol: "anthropic", script, tools, session: { cwd: base } });
    try {
      await run.run("MAIN task");
      const [first, second] = script.requestsOf("worker");
      expect(conversationText(first!)).not.toContain("PING-123");
      expect(conversationText(second!)).toContain(
        "Message from the main agent (SendMessage):\nPING-123: also check the tests",
      );
      const main = script.requestsOf("main");
      expect(conversationText(main[2]!)).toContain(`Message queued for worker (${taskId})`);
      expect(conversationText(main[3]!)).toContain("worker: checked the tests too");
    } finally {
      await run.close();
    }
  });
});

describe("SendMessage addressing", () => {
  function session() {
    const sessionId = randomUUID();
    const inbox = new Map<string, string[]>();
    const add = (id: string, status: AgentStatus, name?: string) => {
      inbox.set(id, []);
      registerAgent(sessionId, {
        id,
        ...(name ? { name } : {}),
        agentType: "general-purpose",
        description: "d",
        fork: false,
        background: true,
        status,
        startedAt: 0,
        lastActivityAt: 0,
        send: (message) => inbox.get(id)!.push(message),
      });
    };
    add("agent_00000001", "running", "alpha");
    add("agent_00000002", "running");
    add("agent_00000003", "completed", "done-one");
    const send = (to: string, agentId?: string) => {
      const context = {
        ...createToolUseContext({ tools: [], sessionId, cwd: base }),
        ...(agentId ? { agentId } : {}),
      };
      return SendMessageTool.call(
        { to, message: "hi" },
        context,
        async () => ({ behavior: "allow" }),
        undefined,
        () => {},
      );
    };
    return { inbox, send };
  }

  it("* reaches every running agent but the sender", async () => {
    const { inbox, send } = session();
    const result = await send("*", "agent_00000001");
    expect(result.data.delivered.map((agent) => agent.id)).toEqual(["agent_00000002"]);
    expect(inbox.get("agent_00000002")).toEqual([
      "Message from agent alpha (agent_00000001) (SendMessage):\nhi",
    ]);
    expect(inbox.get("agent_00000001")).toEqual([]);
    expect(inbox.get("agent_00000003")).toEqual([]);
  });

  it.each([
    ["alpha", undefined, "agent_00000001"],
    ["agent_00000002", undefined, "agent_00000002"],
  ])("by name or id: %s", async (to, sender, id) => {
    const { inbox, send } = session();
    await send(to, sender);
    expect(inbox.get(id)).toHaveLength(1);
  });

  it.each([
    ["done-one", undefined, "no_agent_loop", "Resuming an agent needs Keel's agent loop"],
    [
      "nobody",
      undefined,
      "not_found",
      "Agents of this session: alpha (agent_00000001) running, agent_00000002 running, done-one (agent_00000003) completed.",
    ],
    ["alpha", "agent_00000001", "invalid_input", "That is you"],
  ])("refuses %s (from %s)", async (to, sender, code, message) => {
    const { send } = session();
    const error = await send(to, sender).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe(code);
    expect((error as ToolError).message).toContain(message);
  });
});
