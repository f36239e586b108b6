// Session-level behaviour of the loop: compaction, transcripts and resume, limits, hooks, deferred tools.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import * as z from "zod";
import { HookRunner } from "../hooks/runner.ts";
import { commandHookRunner } from "../hooks/testing.ts";
import { echoTool } from "../pipeline/testing/tools.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import { buildTool, type Tool } from "../tool/Tool.ts";
import { tempFolderForTest } from "../tool/testing/tempFolder.ts";
import { ToolSearchTool } from "../tools/tool-search/ToolSearchTool.ts";
import { Agent } from "./Agent.ts";
import { SUMMARY_PREFIX } from "./compaction.ts";
import { hooksFromRunner } from "./loopHooks.ts";
import { modelInfo } from "./models.ts";
import { collectRun, FAST_RETRY, providerFor, scriptedAgentForTest, startServer } from "./testing/harness.ts";
import { type ScriptTurn, text, toolUse } from "./testing/script.ts";
import type { ScriptedServer } from "./testing/server.ts";
import { findSession, readTranscript, Transcript, transcriptDir } from "./transcript.ts";

function isSummaryRequest(body: Record<string, unknown>): boolean {
  return JSON.stringify(body.system).includes("summarize the earlier part");
}

describe("compaction", () => {
  it("summarizes older turns near the window and keeps recent turns and the open tasks", async () => {
    const todo = buildTool<{ todos: string[] }, string>({
      name: "TodoWrite",
      inputSchema: z.object({ todos: z.array(z.string()) }),
      maxResultSizeChars: 1000,
      description: () => "todos",
      prompt: () => "Writes the todo list.",
      checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
      call: async () => ({ data: "saved" }),
    });
    const big = "x".repeat(2000);
    // Usage drives the estimate: after the third turn the context (1,600 + new messages) passes 80% of 2,000.
    const turns: ScriptTurn[] = [
      { blocks: [toolUse("TodoWrite", { todos: ["echo one", "echo two"] })], usage: { input_tokens: 100 } },
      { blocks: [toolUse("Echo", { text: big })], usage: { input_tokens: 200 } },
      { blocks: [toolUse("Echo", { text: "recent" })], usage: { input_tokens: 1600 } },
      { blocks: [text("finished")], usage: { input_tokens: 400 } },
    ];
    let played = 0;
    const script = (body: Record<string, unknown>): ScriptTurn =>
      isSummaryRequest(body) ? { blocks: [text("SUMMARY: the user wants three echoes.")] } : turns[played++]!;
    const { run, server, agent } = await scriptedAgentForTest({
      protocol: "anthropic",
      tools: [echoTool(), todo],
      session: { allow: ["Echo"] },
      script: (request) => script(request.body),
      agent: { modelInfo: { contextWindow: 2000, maxOutputTokens: 1000 } },
    });
    const { outcome, events } = await run("three echoes please");
    expect(outcome.reason).toBe("completed");
    const compacted = events.find((event) => event.type === "compacted");
    expect(compacted).toMatchObject({ type: "compacted", trigger: "auto" });
    const summaryRequest = server.requests.find((request) => isSummaryRequest(request.body))!;
    expect(summaryRequest.body.tools).toBeUndefined();
    expect(JSON.stringify(summaryRequest.body.messages)).toContain("three echoes please");
    // The request after compaction starts with the summary, then the kept recent turns verbatim.
    const after = server.requests.at(-1)!.body.messages as Array<{
      role: string;
      content: Array<{ type: string; text?: string }>;
    }>;
    const summaryText = after[0]!.content[0]!.text!;
    expect(summaryText.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(summaryText).toContain("SUMMARY: the user wants three echoes.");
    expect(summaryText).toContain('"echo one"');
    expect(after[1]!.role).toBe("assistant");
    expect(JSON.stringify(after)).toContain("recent");
    expect(JSON.stringify(after)).not.toContain(big);
    expect(after).toHaveLength(3);
    expect(agent.messages[0]).toEqual({ role: "user", content: [{ type: "text", text: summaryText }] });
    expect(server.requests.map((request) => isSummaryRequest(request.body))).toEqual([
      false,
      false,
      false,
      true,
      false,
    ]);
  });
});

describe("context too long", () => {
  it("compacts once and retries when the API says the prompt is too long", async () => {
    const turns: ScriptTurn[] = [
      { blocks: [text("first answer")] },
      { httpError: { status: 400, message: "prompt is too long: 250000 tokens > 200000 maximum" } },
      { blocks: [text("second answer")] },
    ];
    let played = 0;
    const { agent, server } = await scriptedAgentForTest({
      protocol: "anthropic",
      script: (request) =>
        isSummaryRequest(request.body) ? { blocks: [text("SUMMARY")] } : turns[played++]!,
    });
    await collectRun(agent.submit("one"));
    const { outcome, events } = await collectRun(agent.submit("two"));
    expect(outcome.reason).toBe("completed");
    expect(outcome.text).toBe("second answer");
    expect(events.some((event) => event.type === "compacted")).toBe(true);
    const retried = server.requests.at(-1)!.body.messages as Array<{ role: string }>;
    expect(retried.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(retried[0])).toContain("SUMMARY");
  });
});

describe("transcripts and resume", () => {
  it("saves the session as JSONL and resumes it with the same request prefix", async () => {
    const home = tempFolderForTest("keel-home-");
    const env = { KEEL_HOME: home };
    const dir = transcriptDir(process.cwd(), env);
    let server: ScriptedServer = await startServer("openai", [
      { blocks: [toolUse("Echo", { text: "remember me" })], usage: { input_tokens: 100, output_tokens: 10 } },
      { blocks: [text("Noted.")], usage: { input_tokens: 120, output_tokens: 5 } },
    ]);
    onTestFinished(() => server.close());
    const tools = [echoTool()];
    const context = createToolUseContext({ tools, cwd: process.cwd(), allow: ["Echo"] });
    const first = new Agent({
      provider: providerFor("openai", server),
      model: "gpt-4o",
      modelInfo: modelInfo("gpt-4o"),
      tools,
      context,
      system: [{ text: "system" }],
      retry: FAST_RETRY,
      transcript: new Transcript(dir, context.options.sessionId),
    });
    await collectRun(first.submit("hello"));
    const lastBody = server.requests.at(-1)!.rawBody;

    const found = findSession(dir);
    if ("error" in found) throw new Error(found.error);
    expect(found.sessionId).toBe(context.options.sessionId);
    const state = readTranscript(found.path);
    expect(state.messages).toEqual(first.messages);
    expect(state.costUsd).toBeCloseTo(first.costUsd, 10);
    expect(state.usage.outputTokens).toBe(15);

    await server.close();
    server = await startServer("openai", [{ blocks: [text("You said: remember me")] }]);
    const resumedContext = createToolUseContext({
      tools,
      cwd: process.cwd(),
      allow: ["Echo"],
      sessionId: state.sessionId,
    });
    const resumed = new Agent({
      provider: providerFor("openai", server),
      model: "gpt-4o",
      modelInfo: modelInfo("gpt-4o"),
      tools,
      context: resumedContext,
      system: [{ text: "system" }],
      retry: FAST_RETRY,
      transcript: new Transcript(dir, state.sessionId),
      resume: state,
    });
    const { outcome } = await collectRun(resumed.submit("what did I say?"));
    expect(outcome.text).toBe("You said: remember me");
    // Byte for byte: the resumed request repeats the earlier conversation exactly, then adds to it.
    const previousMessages = JSON.stringify((JSON.parse(lastBody) as { messages: unknown[] }).messages).slice(
      0,
      -1,
    );
    const resumedMessages = JSON.stringify((server.requests[0]!.body as { messages: unknown[] }).messages);
    expect(resumedMessages.startsWith(previousMessages)).toBe(true);
    expect(resumedMessages.length).toBeGreaterThan(previousMessages.length + 10);
    // The same file holds both runs.
    const lines = readFileSync(found.path, "utf8").trim().split("\n");
    expect(lines.filter((line) => line.includes('"type":"session"'))).toHaveLength(1);
    expect(readTranscript(found.path).messages).toHaveLength(first.messages.length + 2);
  });

  it("finds sessions by id prefix and explains a missing one", async () => {
    const home = tempFolderForTest("keel-home-");
    const dir = transcriptDir("/some/project", { KEEL_HOME: home });
    new Transcript(dir, "abc-123").message({ role: "user", content: "x" });
    expect(findSession(dir, "abc")).toMatchObject({ sessionId: "abc-123" });
    expect(findSession(dir, "zzz")).toMatchObject({ error: expect.stringMatching(/No session "zzz"/) });
    expect(dir).toBe(join(home, ".keel", "projects", "-some-project"));
  });
});

describe("limits", () => {
  it("stops at --max-turns", async () => {
    const { run } = await scriptedAgentForTest({
      protocol: "anthropic",
      tools: [echoTool()],
      session: { allow: ["Echo"] },
      script: [{ blocks: [toolUse("Echo", { text: "a" })] }, { blocks: [toolUse("Echo", { text: "b" })] }],
      agent: { maxTurns: 2 },
    });
    const { outcome } = await run("loop");
    expect(outcome.reason).toBe("max_turns");
    expect(outcome.turns).toBe(2);
  });

  it("stops when the budget is spent", async () => {
    const { run, server } = await scriptedAgentForTest({
      protocol: "anthropic",
      tools: [echoTool()],
      session: { allow: ["Echo"] },
      script: [
        { blocks: [toolUse("Echo", { text: "a" })], usage: { input_tokens: 1_000_000, output_tokens: 0 } },
      ],
      agent: { model: "claude-sonnet-4-6", modelInfo: modelInfo("claude-sonnet-4-6"), maxBudgetUsd: 1 },
    });
    const { outcome } = await run("spend");
    expect(outcome.reason).toBe("budget");
    expect(outcome.costUsd).toBeCloseTo(3, 6);
    expect(server.requests).toHaveLength(1);
  });
});

describe("hooks", () => {
  function hookScript(dir: string, name: string, body: string): string {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/bash\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  }

  it("UserPromptSubmit adds context or blocks; Stop makes the model go on once", async () => {
    const dir = tempFolderForTest("keel-hooks-");
    const marker = join(dir, "stopped-once");
    const prompt = hookScript(
      dir,
      "prompt.sh",
      `input=$(cat); if echo "$input" | grep -q forbidden; then echo "no forbidden prompts" >&2; exit 2; fi; echo "context from hook"`,
    );
    const stop = hookScript(
      dir,
      "stop.sh",
      `if [ -e ${marker} ]; then exit 0; fi; touch ${marker}; echo '{"decision":"block","reason":"run the tests first"}'`,
    );
    const runner = new HookRunner({
      projectDir: dir,
      hooks: [
        {
          event: "UserPromptSubmit",
          matcher: "",
          handler: { type: "command", command: prompt },
          source: "project",
        },
        { event: "Stop", matcher: "", handler: { type: "command", command: stop }, source: "project" },
      ],
    });
    const { agent, server } = await scriptedAgentForTest({
      protocol: "anthropic",
      script: [{ blocks: [text("first answer")] }, { blocks: [text("tests run")] }],
    });
    const hooked = new Agent({
      provider: providerFor("anthropic", server),
      model: "m",
      modelInfo: modelInfo("m"),
      tools: [],
      context: agent.context,
      system: [{ text: "s" }],
      retry: FAST_RETRY,
      hooks: hooksFromRunner(runner, () => ({ sessionId: "s1", cwd: dir, permissionMode: "default" })),
    });
    const blocked = await collectRun(hooked.submit("something forbidden"));
    expect(blocked.outcome.reason).toBe("prompt_blocked");
    expect(blocked.outcome.detail).toContain("no forbidden prompts");
    expect(server.requests).toHaveLength(0);

    const { outcome } = await collectRun(hooked.submit("hello"));
    expect(outcome.reason).toBe("completed");
    expect(outcome.text).toBe("tests run");
    expect(JSON.stringify(server.requests[0]!.body.messages)).toContain("context from hook");
    expect(JSON.stringify(server.requests[1]!.body.messages)).toContain(
      "Stop hook feedback: run the tests first",
    );
  });
});

describe("PreCompact hook", () => {
  it("can stop a compaction; without it /compact summarizes", async () => {
    const dir = tempFolderForTest("keel-precompact-");
    const script = join(dir, "precompact.sh");
    writeFileSync(
      script,
      `#!/bin/bash\ninput=$(cat)\nif echo "$input" | grep -q '"custom_instructions":"keep"'; then echo "not now" >&2; exit 2; fi\nexit 0\n`,
    );
    chmodSync(script, 0o755);
    const runner = commandHookRunner(dir, "PreCompact", "manual", script);
    const { agent, server } = await scriptedAgentForTest({
      protocol: "anthropic",
      script: (request) =>
        isSummaryRequest(request.body) ? { blocks: [text("SUMMARY")] } : { blocks: [text("answer")] },
      agent: {
        hooks: hooksFromRunner(runner, () => ({ sessionId: "s", cwd: dir, permissionMode: "default" })),
      },
    });
    await collectRun(agent.submit("one"));
    await collectRun(agent.submit("two"));
    const blocked = await collectRun(agent.compact({ instructions: "keep" }));
    expect(blocked.outcome).toBe(false);
    expect(blocked.events).toContainEqual(
      expect.objectContaining({
        type: "notice",
        text: expect.stringMatching(/PreCompact hook blocked it \(not now/),
      }),
    );
    expect(server.requests.some((request) => isSummaryRequest(request.body))).toBe(false);
    const done = await collectRun(agent.compact({ instructions: "go ahead" }));
    expect(done.outcome).toBe(true);
    expect(agent.messages[0]).toEqual({
      role: "user",
      content: [{ type: "text", text: expect.stringContaining("SUMMARY") }],
    });
  });
});

/** A deferred tool: offered only once something loads it. */
function rareTool() {
  return buildTool<{ q: string }, string>({
    name: "Rare",
    inputSchema: z.object({ q: z.string() }),
    maxResultSizeChars: 1000,
    description: () => "rare",
    prompt: () => "A rarely needed tool.",
    shouldDefer: true,
    checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
    call: async (input) => ({ data: `rare ${input.q}` }),
  });
}

describe("deferred tools", () => {
  it("offers a deferred tool once a tool result loads it", async () => {
    const deferred = rareTool();
    const loader = buildTool<{ query: string }, { loadedTools: string[] }>({
      name: "Loader",
      inputSchema: z.object({ query: z.string() }),
      maxResultSizeChars: 1000,
      description: () => "loader",
      prompt: () => "Loads deferred tools.",
      checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
      call: async () => ({ data: { loadedTools: ["Rare"] } }),
    });
    const { run, server } = await scriptedAgentForTest({
      protocol: "anthropic",
      tools: [loader, deferred],
      script: [
        { blocks: [toolUse("Loader", { query: "rare" })] },
        { blocks: [toolUse("Rare", { q: "now" })] },
        { blocks: [text("done")] },
      ],
    });
    const { outcome } = await run("use the rare tool");
    expect(outcome.reason).toBe("completed");
    const names = (index: number) =>
      (server.requests[index]!.body.tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(names(0)).toEqual(["Loader"]);
    expect(names(1)).toEqual(["Loader", "Rare"]);
    expect(JSON.stringify(server.requests[2]!.body.messages)).toContain("rare now");
  });

  it("offers what the real ToolSearch loads, and remembers it on resume", async () => {
    const home = tempFolderForTest("keel-home-");
    const dir = transcriptDir(process.cwd(), { KEEL_HOME: home });
    const rare = rareTool();
    const { run, server, agent } = await scriptedAgentForTest({
      protocol: "openai",
      tools: [ToolSearchTool as unknown as Tool, rare],
      script: [{ blocks: [toolUse("ToolSearch", { query: "select:Rare" })] }, { blocks: [text("loaded")] }],
      agent: { transcript: new Transcript(dir, "search-session") },
    });
    await run("find the rare tool");
    const names = (index: number) =>
      (server.requests[index]!.body.tools as Array<{ function: { name: string } }>).map(
        (tool) => tool.function.name,
      );
    expect(names(0)).toEqual(["ToolSearch"]);
    expect(names(1)).toEqual(["ToolSearch", "Rare"]);
    expect(agent.pool.loadedNames).toEqual(["Rare"]);
    expect(readTranscript(join(dir, "search-session.jsonl")).loadedTools).toEqual(["Rare"]);
  });
});
