import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROTOCOLS, scriptedAgent } from "../../agent/testing/harness.ts";
import type { RecordedRequest } from "../../agent/testing/script.ts";
import { text, toolUse } from "../../agent/testing/script.ts";
import type { Tool } from "../../tool/Tool.ts";
import { GlobTool } from "../glob/GlobTool.ts";
import { ReadTool } from "../read/ReadTool.ts";
import { createAgentTool } from "./AgentTool.ts";
import { byPrompt, conversationText, isFork, routedScript } from "./testing.ts";

const base = mkdtempSync(join(tmpdir(), "keel-fork-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const tools = [
  ReadTool,
  GlobTool,
  createAgentTool({ projectRoot: base, env: { KEEL_HOME: base } }),
] as Tool[];

function sharedPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** The cache breakpoint marker moves to the newest user turn in every request (the parent's own next one too). */
const withoutCacheMarkers = (raw: string) => raw.replaceAll(',"cache_control":{"type":"ephemeral"}', "");

/** Where the raw body's messages array ends (before its closing bracket). */
function endOfMessages(raw: string): number {
  const array = JSON.stringify((JSON.parse(raw) as { messages: unknown }).messages);
  const at = raw.indexOf(`"messages":${array}`);
  expect(at).toBeGreaterThan(0);
  return at + '"messages":'.length + array.length - 1;
}

function withoutMessages(request: RecordedRequest): string {
  const { messages: _messages, ...rest } = request.body;
  return JSON.stringify(rest);
}

const forkCall = (prompt: string) =>
  toolUse("Agent", { description: "side task", prompt, subagent_type: "fork" });

describe.each(PROTOCOLS)("fork (%s)", (protocol) => {
  it("sends the parent's request prefix byte for byte, then its own task", async () => {
    const script = routedScript([
      { name: "fork", match: isFork, turns: [{ blocks: [text("fork report: x is fine")] }] },
      {
        name: "main",
        match: byPrompt("MAIN"),
        turns: [
          { blocks: [text("Let me fork that."), forkCall("FORK-TASK check x")] },
          { blocks: [text("done")] },
        ],
      },
    ]);
    const run = await scriptedAgent({ protocol, script, tools, session: { cwd: base } });
    try {
      const { outcome } = await run.run("MAIN task: look at x");
      expect(outcome.text).toBe("done");
      const [parentFirst, parentNext] = script.requestsOf("main");
      const [fork] = script.requestsOf("fork");
      // Model, token limit, system prompt and tools: identical.
      expect(withoutMessages(fork!)).toBe(withoutMessages(parentFirst!));
      // Every message the parent sent is repeated byte for byte (cache markers aside) ...
      const forkRaw = withoutCacheMarkers(fork!.rawBody);
      const parentRaw = withoutCacheMarkers(parentFirst!.rawBody);
      expect(sharedPrefixLength(forkRaw, parentRaw)).toBeGreaterThanOrEqual(endOfMessages(parentRaw));
      // ... and so is the assistant message that asked for the fork, as the parent's own next request has it.
      const assistant = JSON.stringify(
        (parentNext!.body.messages as Array<{ role: string }>).find(
          (message) => message.role === "assistant",
        ),
      );
      const assistantEnd = parentNext!.rawBody.indexOf(assistant) + assistant.length;
      expect(assistantEnd).toBeGreaterThan(assistant.length);
      expect(sharedPrefixLength(fork!.rawBody, parentNext!.rawBody)).toBeGreaterThanOrEqual(assistantEnd);
      expect(conversationText(fork!)).toContain("FORK-TASK check x");
      const result = conversationText(parentNext!);
      expect(result).toContain("fork report: x is fine");
      expect(result).toMatch(/agent_[0-9a-f]{8} \(fork, test-model\)/);
    } finally {
      await run.close();
    }
  });
});

describe("fork rules", () => {
  it("two forks of one message share their prefix up to their tasks; a fork cannot fork again", async () => {
    const script = routedScript([
      {
        name: "forkA",
        match: (request) => isFork(request) && conversationText(request).includes("Task:\nTASK-A"),
        turns: [{ blocks: [forkCall("TASK-C")] }, { blocks: [text("A done")] }],
      },
      {
        name: "forkB",
        match: (request) => isFork(request) && conversationText(request).includes("Task:\nTASK-B"),
        turns: [{ blocks: [text("B done")] }],
      },
      {
        name: "main",
        match: byPrompt("MAIN"),
        turns: [{ blocks: [forkCall("TASK-A"), forkCall("TASK-B")] }, { blocks: [text("done")] }],
      },
    ]);
    const run = await scriptedAgent({ protocol: "anthropic", script, tools, session: { cwd: base } });
    try {
      await run.run("MAIN task");
      const a = script.requestsOf("forkA")[0]!.rawBody;
      const b = script.requestsOf("forkB")[0]!.rawBody;
      expect(a.slice(sharedPrefixLength(a, b))).toMatch(/^[AB]"/);
      expect(conversationText(script.requestsOf("forkA")[1]!)).toContain("a fork cannot fork again");
      const result = conversationText(script.requestsOf("main")[1]!);
      expect(result).toContain("A done");
      expect(result).toContain("B done");
    } finally {
      await run.close();
    }
  });

  it("refuses another model for a fork", async () => {
    const script = routedScript([
      {
        name: "main",
        match: byPrompt("MAIN"),
        turns: [
          {
            blocks: [
              toolUse("Agent", { description: "d", prompt: "p", subagent_type: "fork", model: "haiku" }),
            ],
          },
          { blocks: [text("done")] },
        ],
      },
    ]);
    const run = await scriptedAgent({ protocol: "anthropic", script, tools, session: { cwd: base } });
    try {
      await run.run("MAIN task");
      expect(conversationText(script.requestsOf("main")[1]!)).toContain(
        "A fork keeps your model (test-model)",
      );
    } finally {
      await run.close();
    }
  });
});
