// Both providers against servers on 127.0.0.1 that speak the real streaming protocols.
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ProviderError } from "../errors.ts";
import type { ModelProvider, ModelRequest, ModelResponse, StreamEvent } from "../provider.ts";
import { startAnthropicServer } from "../testing/anthropicServer.ts";
import { startOpenAIServer } from "../testing/openaiServer.ts";
import { type Script, text, thinking, toolUse } from "../testing/script.ts";
import type { ScriptedServer } from "../testing/server.ts";
import { AnthropicProvider } from "./anthropic.ts";
import { OpenAIProvider } from "./openai.ts";

const KEY = "test-key";

interface Kind {
  name: "anthropic" | "openai";
  start: (script: Script, apiKey?: string) => Promise<ScriptedServer>;
  provider: (url: string, apiKey?: string) => ModelProvider;
}

const KINDS: Kind[] = [
  {
    name: "anthropic",
    start: (script, apiKey = KEY) => startAnthropicServer({ script, apiKey }),
    provider: (url, apiKey = KEY) => new AnthropicProvider({ apiKey, baseURL: url }),
  },
  {
    name: "openai",
    start: (script, apiKey = KEY) => startOpenAIServer({ script, apiKey }),
    provider: (url, apiKey = KEY) => new OpenAIProvider({ apiKey, baseURL: `${url}/v1` }),
  },
];

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(kind: Kind, script: Script, apiKey?: string) {
  const server = await kind.start(script, apiKey);
  servers.push(server);
  return server;
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: "test-model",
    system: [{ text: "You are a test.", cache: true }],
    messages: [{ role: "user", content: "hi" }],
    tools: [
      {
        name: "Echo",
        description: "Echoes.",
        inputSchema: { type: "object", properties: { text: { type: "string" } } },
      },
    ],
    maxTokens: 1000,
    ...overrides,
  };
}

async function collect(
  provider: ModelProvider,
  req: ModelRequest,
  signal = new AbortController().signal,
): Promise<{ events: StreamEvent[]; response: ModelResponse }> {
  const events: StreamEvent[] = [];
  const stream = provider.stream(req, signal);
  for (;;) {
    const next = await stream.next();
    if (next.done) return { events, response: next.value };
    events.push(next.value);
  }
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error("expected a ProviderError");
}

describe.each(KINDS)("$name provider", (kind) => {
  it("streams text and reassembles chunked tool arguments of parallel calls", async () => {
    const server = await serve(kind, [
      {
        blocks: [
          text("Let me check both."),
          toolUse("Echo", { text: 'first "quoted" ünïcode' }),
          toolUse("Echo", { text: "second", nested: { list: [1, 2, 3] } }),
        ],
        chunkSize: 3,
        usage: { input_tokens: 50, output_tokens: 30 },
      },
    ]);
    const { events, response } = await collect(kind.provider(server.url), request());
    const textOut = events.flatMap((event) => (event.type === "text_delta" ? [event.text] : [])).join("");
    expect(textOut).toBe("Let me check both.");
    const completed = events.filter((event) => event.type === "tool_use_complete");
    expect(completed.map((event) => event.type === "tool_use_complete" && event.block.input)).toEqual([
      { text: 'first "quoted" ünïcode' },
      { text: "second", nested: { list: [1, 2, 3] } },
    ]);
    expect(response.stopReason).toBe("tool_use");
    expect(response.content.map((block) => block.type)).toEqual(["text", "tool_use", "tool_use"]);
    expect(response.usage.outputTokens).toBe(30);
    expect(response.usage.inputTokens).toBe(50);
  });

  it("passes malformed arguments on as raw text and repairs harmless damage", async () => {
    const server = await serve(kind, [
      { blocks: [toolUse("Echo", '{"text": "cut off'), toolUse("Echo", '{"text": "ok",}')] },
    ]);
    const { events } = await collect(kind.provider(server.url), request());
    const completed = events.flatMap((event) => (event.type === "tool_use_complete" ? [event] : []));
    expect(completed[0]?.malformed).toBe(true);
    expect(completed[0]?.block.input).toBe('{"text": "cut off');
    expect(completed[1]?.repaired).toBe(true);
    expect(completed[1]?.block.input).toEqual({ text: "ok" });
  });

  it("classifies 429 as retryable with the server's retry-after", async () => {
    const server = await serve(kind, [{ httpError: { status: 429, retryAfterSeconds: 2 } }]);
    const error = await failure(collect(kind.provider(server.url), request()));
    expect(error.code).toBe("rate_limited");
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(2000);
  });

  it("reports a bad key as auth, naming the variable to set", async () => {
    const server = await serve(kind, [{ blocks: [text("never")] }]);
    const error = await failure(collect(kind.provider(server.url, "wrong-key"), request()));
    expect(error.code).toBe("auth");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(kind.name === "anthropic" ? /ANTHROPIC_API_KEY/ : /OPENAI_API_KEY/);
    expect(error.message).not.toMatch(/\n\s+at /);
  });

  it("reports an unknown model", async () => {
    const server = await serve(kind, [{ httpError: { status: 404, message: "model: nope" } }]);
    const error = await failure(collect(kind.provider(server.url), request({ model: "nope" })));
    expect(error.code).toBe("model_not_found");
    expect(error.message).toContain('"nope"');
  });

  it("reports an unreachable endpoint", async () => {
    const port = await closedPort();
    const error = await failure(collect(kind.provider(`http://127.0.0.1:${port}`), request()));
    expect(error.code).toBe("unreachable");
    expect(error.message).toContain(`127.0.0.1:${port}`);
  });

  it("reports an error event mid-stream as retryable", async () => {
    const server = await serve(kind, [
      {
        blocks: [text("partial"), text("more")],
        streamError: { afterBlocks: 1, type: "overloaded_error", message: "Overloaded" },
      },
    ]);
    const error = await failure(collect(kind.provider(server.url), request()));
    expect(error.code).toBe("overloaded");
    expect(error.retryable).toBe(true);
  });

  it("stops at once when aborted mid-stream", async () => {
    const server = await serve(kind, [
      { blocks: [text("first block"), text("never sent")], hangAfterBlocks: 1 },
    ]);
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    const stream = kind.provider(server.url).stream(request(), controller.signal);
    const run = (async () => {
      for (;;) {
        const next = await stream.next();
        if (next.done) return;
        events.push(next.value);
        if (
          next.value.type === "text_delta" &&
          events.map((e) => (e.type === "text_delta" ? e.text : "")).join("") === "first block"
        )
          controller.abort();
      }
    })();
    const error = await failure(run);
    expect(error.code).toBe("aborted");
    await until(() => server.clientClosed.length === 1);
  });
});

describe("request shapes", () => {
  it("anthropic: redacted thinking is kept and sent back unchanged", async () => {
    const server = await serve(KINDS[0]!, [
      { blocks: [{ type: "redacted_thinking", data: "ENCRYPTED" }, text("ok")] },
      { blocks: [text("again")] },
    ]);
    const provider = KINDS[0]!.provider(server.url);
    const first = await collect(provider, request({ thinkingBudget: 2000 }));
    expect(first.response.content[0]).toEqual({ type: "redacted_thinking", data: "ENCRYPTED" });
    await collect(
      provider,
      request({
        thinkingBudget: 2000,
        messages: [
          { role: "user", content: "one" },
          { role: "assistant", content: first.response.content },
          { role: "user", content: "two" },
        ],
      }),
    );
    const sent = server.requests[1]!.body as { messages: Array<{ content: unknown }> };
    expect(sent.messages[1]!.content).toEqual(
      expect.arrayContaining([{ type: "redacted_thinking", data: "ENCRYPTED" }]),
    );
  });

  it("anthropic: cache breakpoints on the system prompt and the newest user turn; thinking passed through", async () => {
    const server = await serve(KINDS[0]!, [{ blocks: [thinking("hmm", "sig-1"), text("done")] }]);
    const provider = KINDS[0]!.provider(server.url);
    const { response } = await collect(
      provider,
      request({
        thinkingBudget: 2000,
        messages: [
          { role: "user", content: "one" },
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "earlier", signature: "s0" },
              { type: "text", text: "two" },
            ],
          },
          { role: "user", content: [{ type: "text", text: "three" }] },
        ],
      }),
    );
    expect(response.content[0]).toEqual({ type: "thinking", thinking: "hmm", signature: "sig-1" });
    const body = server.requests[0]!.body as {
      system: Array<{ cache_control?: unknown }>;
      messages: Array<{ content: Array<Record<string, unknown>> }>;
      thinking: unknown;
    };
    expect(body.system[0]?.cache_control).toEqual({ type: "ephemeral" });
    expect(body.messages[2]?.content.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    expect(body.messages[1]?.content[0]).toEqual({ type: "thinking", thinking: "earlier", signature: "s0" });
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 2000 });
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("openai: tool results become tool messages after the assistant's tool_calls", async () => {
    const server = await serve(KINDS[1]!, [{ blocks: [text("ok")] }]);
    await collect(
      KINDS[1]!.provider(server.url),
      request({
        messages: [
          { role: "user", content: "go" },
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "c1", name: "Echo", input: { text: "x" } }],
          },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "c1", content: "x" },
              { type: "text", text: "and?" },
            ],
          },
        ],
      }),
    );
    const body = server.requests[0]!.body as { messages: unknown[]; tools: unknown[]; max_tokens: number };
    expect(body.messages).toEqual([
      { role: "system", content: "You are a test." },
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "Echo", arguments: '{"text":"x"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "x" },
      { role: "user", content: [{ type: "text", text: "and?" }] },
    ]);
    expect(body.tools).toHaveLength(1);
    expect(body.max_tokens).toBe(1000);
  });
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("condition never held");
}
