// Resuming in one process: SendMessage to a finished agent's name continues its own loop (conversation
// and reads) in the background; its answer comes back as a task notification. ListAgents lists it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { scriptedAgent } from "../../agent/testing/harness.ts";
import { text, toolUse } from "../../agent/testing/script.ts";
import type { Tool } from "../../tool/Tool.ts";
import { EditTool } from "../edit/EditTool.ts";
import { ListAgentsTool } from "../list-agents/ListAgentsTool.ts";
import { ReadTool } from "../read/ReadTool.ts";
import { SendMessageTool } from "../send-message/SendMessageTool.ts";
import { createAgentTool } from "./AgentTool.ts";
import { byPrompt, conversationText, routedScript } from "./testing.ts";

const base = mkdtempSync(join(tmpdir(), "keel-agent-resume-"));
// Other Keel sessions on this machine would be listed too; this test lists this session's agents only.
const socketsBefore = process.env.KEEL_SESSION_SOCKETS;
process.env.KEEL_SESSION_SOCKETS = "off";
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
  if (socketsBefore === undefined) delete process.env.KEEL_SESSION_SOCKETS;
  else process.env.KEEL_SESSION_SOCKETS = socketsBefore;
});

it("SendMessage to a finished agent resumes it with its conversation and reads, and its answer comes back", async () => {
  const file = join(base, "notes.txt");
  writeFileSync(file, "alpha\n");
  const tools = [
    ReadTool,
    EditTool,
    SendMessageTool,
    ListAgentsTool,
    createAgentTool({ projectRoot: base }),
  ] as Tool[];
  const script = routedScript([
    {
      name: "helper",
      match: byPrompt("SUB: read"),
      turns: [
        { blocks: [toolUse("Read", { file_path: file })] },
        { blocks: [text("it says alpha")] },
        { blocks: [toolUse("Edit", { file_path: file, old_string: "alpha", new_string: "beta" })] },
        { blocks: [text("now it says beta")] },
      ],
    },
    {
      name: "main",
      match: () => true,
      turns: [
        {
          blocks: [toolUse("Agent", { description: "read", prompt: "SUB: read the notes", name: "reader" })],
        },
        { blocks: [toolUse("ListAgents", { limit: 1 })] },
        { blocks: [toolUse("SendMessage", { to: "reader", message: "make it beta" })] },
        { blocks: [text("asked")] },
        { blocks: [text("reader finished")] },
      ],
    },
  ]);
  const run = await scriptedAgent({
    protocol: "anthropic",
    script,
    tools,
    session: { cwd: base, allow: ["Edit"] },
  });
  try {
    await run.run("MAIN go");
    const listing = conversationText(script.requestsOf("main")[2]!);
    expect(listing).toMatch(/agent reader agent_[0-9a-f]{8}\s+general-purpose\s+none\s+completed/);
    expect(listing).not.toContain("more:");
    expect(conversationText(script.requestsOf("main")[3]!)).toContain(
      "had finished, so it was resumed in the background",
    );
    // The report comes while the main loop is idle: the session's driver runs a turn for it.
    for (let i = 0; i < 200 && !run.agent.hasPendingInput; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(run.agent.takePendingInput()).toEqual({ kind: "messages" });
    for await (const _event of run.agent.continueWithMessages()) {
      // drained
    }
    expect(readFileSync(file, "utf8")).toBe("beta\n");
    const resumed = script.requestsOf("helper").at(-1)!;
    expect(conversationText(resumed)).toContain("it says alpha");
    expect(conversationText(script.requestsOf("main").at(-1)!)).toMatch(
      /task-notification[\s\S]*now it says beta/,
    );
  } finally {
    await run.close();
  }
}, 30_000);
