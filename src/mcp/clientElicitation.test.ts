// Forms (elicitation) from a real MCP server reach the session's prompter: a library user's callback, or
// the terminal; with nobody to answer they are declined at once, and a cancelled call never hangs on one.

import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { callbackPrompter } from "../permissions/prompters/callbackPrompter.ts";
import { terminalPrompter } from "../permissions/prompters/terminalPrompter.ts";
import { runToolUse } from "../pipeline/runToolUse.ts";
import type { Prompter } from "../pipeline/services.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import { connectMcpServers } from "./client.ts";
import { REPO } from "./testing/harness.ts";

const ASKS = join(REPO, "src/mcp/testing/servers/asks.mjs");

async function signup(
  prompter: Prompter | undefined,
  signal?: AbortSignal,
): Promise<{ text: string; isError: boolean }> {
  const manager = await connectMcpServers(
    [
      {
        name: "asks",
        origin: "test",
        config: { type: "stdio", command: process.execPath, args: [ASKS], env: {} },
      },
    ],
    { elicitation: { prompter } },
  );
  try {
    const tools = manager.tools();
    const context = createToolUseContext({
      tools,
      cwd: tmpdir(),
      allow: ["mcp__asks"],
      ...(signal ? { signal } : {}),
    });
    for await (const event of runToolUse(
      { type: "tool_use", id: "1", name: "mcp__asks__signup", input: {} },
      context,
    ))
      if (event.type === "result") return { text: String(event.block.content), isError: event.isError };
    throw new Error("no result");
  } finally {
    await manager.close();
  }
}

describe("elicitation from MCP servers Keel uses", () => {
  it("goes to a library user's callback; the form's defaults fill what was left out", async () => {
    const seen: string[] = [];
    const prompter = callbackPrompter(async () => ({ behavior: "deny" }), {
      onElicitation: async (request) => {
        seen.push(`${request.serverName}: ${request.message}`);
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    const result = await signup(prompter);
    expect(seen).toEqual(["asks: Who is signing up?"]);
    expect(JSON.parse(result.text)).toEqual({ action: "accept", content: { name: "Ada", seats: 3 } });
  });

  it("is declined at once when nobody can answer", async () => {
    const result = await signup(undefined);
    expect(JSON.parse(result.text)).toEqual({ action: "decline" });
    const noForms: Prompter = { name: "approvals only", ask: async () => ({ behavior: "deny" }) };
    expect(JSON.parse((await signup(noForms)).text)).toEqual({ action: "decline" });
  });

  it("is asked on the terminal, field by field", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = "";
    output.on("data", (chunk: Buffer) => {
      shown += chunk.toString("utf8");
    });
    const prompter = terminalPrompter({ input, output, persist: false });
    input.write("y\nGrace\n\n2\n");
    const result = await signup(prompter);
    prompter.close();
    expect(JSON.parse(result.text)).toEqual({
      action: "accept",
      content: { name: "Grace", seats: 3, plan: "pro" },
    });
    expect(shown).toContain('MCP server "asks" asks for input:\nWho is signing up?');
    expect(shown).toContain("  2  pro");
  });

  it("never hangs a cancelled call on an unanswered form", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const prompter = terminalPrompter({ input, output, persist: false });
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error("stopped by the user")), 500);
    const result = await signup(prompter, abort.signal);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/stopped by the user|cancelled/);
    // The form was withdrawn with the call: the terminal is free for the next question.
    const approval = prompter.ask({
      tool: { name: "Next", userFacingName: () => "Next", permissionRuleNames: ["Next"] },
      input: {},
      toolUseId: "2",
      message: "next question",
      decision: {
        behavior: "ask",
        message: "next question",
        decisionReason: { type: "other", reason: "test" },
      },
      suggestions: [],
      context: createToolUseContext({ tools: [], cwd: tmpdir() }),
      signal: new AbortController().signal,
    } as never);
    input.write("y\n");
    expect(await approval).toMatchObject({ behavior: "allow" });
    prompter.close();
  });
});
