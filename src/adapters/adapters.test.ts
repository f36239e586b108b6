// Keel tools used from other SDKs, against scripted servers: AI SDK generateText, and raw Anthropic /
// OpenAI SDK calls whose tool calls run through Keel's pipeline.
import { createAnthropic } from "@ai-sdk/anthropic";
import Anthropic from "@anthropic-ai/sdk";
import { generateText, stepCountIs } from "ai";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { startServer, TEST_KEY } from "../agent/testing/harness.ts";
import { text, toolUse } from "../agent/testing/script.ts";
import type { ScriptedServer } from "../agent/testing/server.ts";
import type { AuditRecord } from "../pipeline/services.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import { buildTool, type Tool } from "../tool/Tool.ts";
import { type KeelToolOutput, toAISDKTools } from "./aiSdk.ts";
import { runModelToolCalls, toAnthropicTools, toOpenAITools } from "./rawTools.ts";

const calls: string[] = [];
const weather = buildTool<{ city: string }, string>({
  name: "Weather",
  inputSchema: z.strictObject({ city: z.string() }),
  maxResultSizeChars: 1000,
  description: () => "weather",
  prompt: () => "Tells the weather in a city.",
  isReadOnly: true,
  isConcurrencySafe: true,
  // `Weather(city)` rules: the tool's own content matcher, declared with it as any tool does.
  ruleMatcher: { matches: ({ input, rule }) => (input as { city?: string }).city === rule.value.ruleContent },
  call: async (input) => {
    calls.push(input.city);
    return { data: `Sunny in ${input.city}` };
  },
}) as Tool;

const servers: ScriptedServer[] = [];
afterEach(async () => {
  calls.length = 0;
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function session(rules: { allow?: string[]; deny?: string[] }, audit?: AuditRecord[]) {
  const context = createToolUseContext({ tools: [weather], cwd: process.cwd(), ...rules });
  return { context, services: audit ? { audit: { record: (entry: AuditRecord) => audit.push(entry) } } : {} };
}

// The AI SDK's own Anthropic provider, pointed at the scripted server.
function aiSdkModel(server: ScriptedServer) {
  return createAnthropic({ baseURL: `${server.url}/v1`, apiKey: TEST_KEY })("claude-test");
}

describe("toAISDKTools", () => {
  it("generateText runs a Keel tool through the pipeline", async () => {
    const server = await startServer("anthropic", [
      { blocks: [toolUse("Weather", { city: "Lisbon" })] },
      { blocks: [text("It is sunny in Lisbon.")] },
    ]);
    servers.push(server);
    const audit: AuditRecord[] = [];
    const { context, services } = session({ allow: ["Weather"] }, audit);
    const result = await generateText({
      model: aiSdkModel(server),
      tools: await toAISDKTools([weather], { context, services }),
      stopWhen: stepCountIs(3),
      prompt: "Weather in Lisbon?",
    });
    expect(result.text).toBe("It is sunny in Lisbon.");
    expect(calls).toEqual(["Lisbon"]);
    expect(audit.map((entry) => [entry.tool, entry.behavior, entry.decidedBy])).toEqual([
      ["Weather", "allow", "allow rule Weather from cliArg settings"],
    ]);
    const sent = JSON.stringify(server.requests[1]!.body.messages);
    expect(sent).toContain("Sunny in Lisbon");
  });

  it("a deny rule stops the call; the model gets the refusal as a tool error", async () => {
    const server = await startServer("anthropic", [
      { blocks: [toolUse("Weather", { city: "Oslo" })] },
      { blocks: [text("I may not check the weather.")] },
    ]);
    servers.push(server);
    const audit: AuditRecord[] = [];
    const { context, services } = session({ deny: ["Weather(Oslo)"], allow: ["Weather"] }, audit);
    const tools = await toAISDKTools([weather], { context, services });
    const result = await generateText({
      model: aiSdkModel(server),
      tools,
      stopWhen: stepCountIs(3),
      prompt: "Weather in Oslo?",
    });
    expect(calls).toEqual([]);
    expect(result.text).toBe("I may not check the weather.");
    const toolResult = result.steps[0]!.content.find((part) => part.type === "tool-result");
    expect((toolResult as { output: KeelToolOutput } | undefined)?.output).toMatchObject({
      isError: true,
      errorCode: "permission_denied",
    });
    expect(audit[0]?.behavior).toBe("deny");
  });

  it("a blanket deny hides the tool from the model", async () => {
    const { context } = session({ deny: ["Weather"] });
    expect(Object.keys(await toAISDKTools([weather], { context }))).toEqual([]);
  });

  it("refuses an ask when nobody can answer, like every other surface", async () => {
    const { context } = session({});
    const tools = await toAISDKTools([weather], { context });
    const output = (await tools.Weather!.execute!(
      { city: "Rome" },
      { toolCallId: "t1", messages: [] },
    )) as KeelToolOutput;
    expect(output).toMatchObject({
      isError: true,
      errorCode: "permission_denied",
      decidedBy: "nobody to ask (non-interactive)",
    });
    expect(calls).toEqual([]);
  });
});

describe("raw API tool definitions and runModelToolCalls", () => {
  it("Anthropic: definitions in, tool_use blocks run, tool_result blocks back", async () => {
    const server = await startServer("anthropic", [
      { blocks: [toolUse("Weather", { city: "Paris" }), toolUse("Weather", { city: "Rome" })] },
      { blocks: [text("Both sunny.")] },
    ]);
    servers.push(server);
    const { context } = session({ allow: ["Weather"] });
    const client = new Anthropic({ apiKey: TEST_KEY, baseURL: server.url, maxRetries: 0 });
    const tools = await toAnthropicTools([weather], {
      permissionContext: context.getAppState().toolPermissionContext,
    });
    expect(tools).toEqual([
      {
        name: "Weather",
        description: "Tells the weather in a city.",
        input_schema: expect.objectContaining({ type: "object", required: ["city"] }),
      },
    ]);
    const first = await client.messages.create({
      model: "claude-test",
      max_tokens: 100,
      tools: tools as Anthropic.Tool[],
      messages: [{ role: "user", content: "Weather?" }],
    });
    const results = await runModelToolCalls("anthropic", first.content, { context });
    expect(results).toEqual([
      { type: "tool_result", tool_use_id: "toolu_00_0", content: "Sunny in Paris" },
      { type: "tool_result", tool_use_id: "toolu_00_1", content: "Sunny in Rome" },
    ]);
    const second = await client.messages.create({
      model: "claude-test",
      max_tokens: 100,
      messages: [
        { role: "user", content: "Weather?" },
        { role: "assistant", content: first.content },
        { role: "user", content: results },
      ],
    });
    expect(second.content).toEqual([{ type: "text", text: "Both sunny." }]);
  });

  it("OpenAI: function definitions, tool_calls run, tool messages back (a refusal as an error)", async () => {
    const server = await startServer("openai", [
      { blocks: [toolUse("Weather", { city: "Paris" }), toolUse("Weather", { city: "Oslo" })] },
    ]);
    servers.push(server);
    const { context } = session({ allow: ["Weather"], deny: ["Weather(Oslo)"] });
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const tools = await toOpenAITools([weather]);
    expect(tools[0]?.function.name).toBe("Weather");
    const response = await client.chat.completions.create({
      model: "gpt-test",
      tools: tools as OpenAI.Chat.ChatCompletionTool[],
      messages: [{ role: "user", content: "Weather?" }],
    });
    const toolCalls = (response.choices[0]!.message.tool_calls ?? []).flatMap((call) =>
      call.type === "function" ? [call] : [],
    );
    const messages = await runModelToolCalls("openai", toolCalls, { context });
    expect(messages).toEqual([
      { role: "tool", tool_call_id: "call_00_0", content: "Sunny in Paris" },
      {
        role: "tool",
        tool_call_id: "call_00_1",
        content: expect.stringMatching(/^Error: Weather denied by the cliArg rule deny: Weather\(Oslo\)/),
      },
    ]);
    expect(calls).toEqual(["Paris"]);
  });
});
