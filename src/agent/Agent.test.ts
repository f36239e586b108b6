// The loop against scripted servers speaking each provider's real streaming protocol.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { echoTool, gatedTool, Latch, until } from "../pipeline/testing/tools.ts";
import { buildTool } from "../tool/Tool.ts";
import { PROTOCOLS, scriptedAgentForTest } from "./testing/harness.ts";
import { text, toolUse } from "./testing/script.ts";

/** The tool_result blocks a request sent, in order, whatever the protocol. */
function toolResultsSent(
  body: Record<string, unknown>,
): Array<{ id: string; content: string; isError: boolean }> {
  const messages = body.messages as Array<Record<string, unknown>>;
  const found: Array<{ id: string; content: string; isError: boolean }> = [];
  for (const message of messages) {
    if (message.role === "tool")
      found.push({
        id: message.tool_call_id as string,
        content: String(message.content),
        isError: String(message.content).startsWith("Error: "),
      });
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<Record<string, unknown>>)
      if (block.type === "tool_result")
        found.push({
          id: block.tool_use_id as string,
          content: String(block.content),
          isError: block.is_error === true,
        });
  }
  return found;
}

describe.each(PROTOCOLS)("the loop over %s", (protocol) => {
  it("runs multi-turn tool use until the model stops", async () => {
    const { run, server, agent } = await scriptedAgentForTest({
      protocol,
      tools: [echoTool()],
      session: { allow: ["Echo"] },
      script: [
        { blocks: [text("Echoing."), toolUse("Echo", { text: "one" })] },
        { blocks: [toolUse("Echo", { text: "two" })] },
        { blocks: [text("All done.")], usage: { input_tokens: 300, output_tokens: 12 } },
      ],
    });
    const { outcome, events } = await run("echo twice");
    expect(outcome.reason).toBe("completed");
    expect(outcome.turns).toBe(3);
    expect(outcome.text).toBe("All done.");
    expect(server.requests).toHaveLength(3);
    expect(toolResultsSent(server.requests[1]!.body).map((r) => r.content)).toEqual(["one"]);
    expect(toolResultsSent(server.requests[2]!.body).map((r) => r.content)).toEqual(["one", "two"]);
    expect(agent.messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(events.filter((e) => e.type === "tool_result")).toHaveLength(2);
    // Token accounting per turn, summed for the prompt.
    expect(outcome.usage.outputTokens).toBe(20 + 20 + 12);
    expect(outcome.usage.inputTokens).toBe(100 + 100 + 300);
  });

  it("runs parallel calls together and returns results in call order", async () => {
    const gated = gatedTool("Probe", { safe: true });
    const released = new Latch();
    const { run, server } = await scriptedAgentForTest({
      protocol,
      tools: [gated.tool],
      script: [
        {
          blocks: [
            toolUse("Probe", { id: "a" }),
            toolUse("Probe", { id: "b" }),
            toolUse("Probe", { id: "c" }),
          ],
          beforeStop: async () => {
            await until(() => gated.running() === 3, "three calls running");
            released.open();
          },
        },
        { blocks: [text("ok")] },
      ],
    });
    const running = run("probe");
    await released.promise;
    for (const id of ["c", "b", "a"]) gated.release(id);
    const { outcome } = await running;
    expect(outcome.reason).toBe("completed");
    expect(gated.maxRunning()).toBe(3);
    expect(toolResultsSent(server.requests[1]!.body).map((r) => r.content)).toEqual([
      "done a",
      "done b",
      "done c",
    ]);
  });

  it("starts a tool before the message ends", async () => {
    const started = new Latch();
    let startedBeforeStop: boolean | undefined;
    const tool = buildTool<{ n: number }, string>({
      name: "Early",
      inputSchema: z.object({ n: z.number() }),
      maxResultSizeChars: 1000,
      description: () => "early",
      prompt: () => "Starts early.",
      checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
      async call() {
        started.open();
        return { data: "started" };
      },
    });
    const { run } = await scriptedAgentForTest({
      protocol,
      tools: [tool],
      script: [
        {
          blocks: [toolUse("Early", { n: 1 }), text("and some text after the call")],
          // The server holds message_stop (finish_reason) until the tool has started, or 5 s pass.
          beforeStop: async () => {
            await Promise.race([started.promise, new Promise((resolve) => setTimeout(resolve, 5000))]);
            startedBeforeStop = started.opened;
          },
        },
        { blocks: [text("done")] },
      ],
    });
    const { outcome } = await run("go");
    expect(outcome.reason).toBe("completed");
    expect(startedBeforeStop).toBe(true);
  });

  it("answers malformed tool arguments with an error the model can act on, and goes on", async () => {
    const { run, server } = await scriptedAgentForTest({
      protocol,
      tools: [echoTool()],
      session: { allow: ["Echo"] },
      script: [{ blocks: [toolUse("Echo", '{"text": "unterminated')] }, { blocks: [text("sorry")] }],
    });
    const { outcome } = await run("go");
    expect(outcome.reason).toBe("completed");
    const [result] = toolResultsSent(server.requests[1]!.body);
    expect(result?.isError).toBe(true);
    expect(result?.content).toMatch(/not valid JSON/);
  });

  it("retries 429 and overloaded, then succeeds", async () => {
    const { run, server } = await scriptedAgentForTest({
      protocol,
      script: [
        { httpError: { status: 429 } },
        {
          blocks: [text("part")],
          streamError: { afterBlocks: 1, type: "overloaded_error", message: "Overloaded" },
        },
        { blocks: [text("finally")] },
      ],
    });
    const { outcome, events } = await run("hi");
    expect(outcome.reason).toBe("completed");
    expect(outcome.text).toBe("finally");
    expect(events.filter((e) => e.type === "retry").map((e) => e.type === "retry" && e.error.code)).toEqual([
      "rate_limited",
      "overloaded",
    ]);
    expect(server.requests).toHaveLength(3);
  });

  it("stops with a clear error on a bad key, without retrying", async () => {
    const { run, server } = await scriptedAgentForTest({
      protocol,
      apiKey: "wrong",
      script: [{ blocks: [text("never")] }],
    });
    const { outcome } = await run("hi");
    expect(outcome.reason).toBe("error");
    expect(outcome.error?.code).toBe("auth");
    expect(outcome.detail).toMatch(/API_KEY/);
    expect(server.requests).toHaveLength(1);
  });

  it("interrupts mid-stream: keeps what was said, and the next prompt works", async () => {
    const { agent, server } = await scriptedAgentForTest({
      protocol,
      script: [
        { blocks: [text("I will now"), text("never")], hangAfterBlocks: 1 },
        { blocks: [text("back")] },
      ],
    });
    const first = agent.submit("start");
    let seen = "";
    let outcome: Awaited<ReturnType<typeof first.next>>;
    for (;;) {
      outcome = await first.next();
      if (outcome.done) break;
      const event = outcome.value;
      if (event.type === "stream" && event.event.type === "text_delta") {
        seen += event.event.text;
        if (seen === "I will now") agent.interrupt();
      }
    }
    expect(outcome.value.reason).toBe("interrupted");
    await until(() => server.clientClosed.length === 1, "the client closed the stream");
    expect(agent.messages.at(-1)).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "I will now" }],
    });
    const second: string[] = [];
    for await (const event of agent.submit("again"))
      if (event.type === "end") second.push(event.outcome.reason);
    expect(second).toEqual(["completed"]);
  });
});

describe("interrupting running tools", () => {
  it("cancels tools that can be cancelled and lets blocking tools finish", async () => {
    const cancellable = gatedTool("Cancellable", { safe: true });
    const blockingStarted = new Latch();
    const blockingRelease = new Latch();
    const blocking = buildTool<{ x: number }, string>({
      name: "Blocking",
      inputSchema: z.object({ x: z.number() }),
      maxResultSizeChars: 1000,
      description: () => "blocking",
      prompt: () => "Finishes even when interrupted.",
      isConcurrencySafe: true,
      isReadOnly: true,
      interruptBehavior: () => "block",
      checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
      async call() {
        blockingStarted.open();
        await blockingRelease.promise;
        return { data: "finished anyway" };
      },
    });
    const { agent } = await scriptedAgentForTest({
      protocol: "anthropic",
      tools: [cancellable.tool, blocking],
      script: [{ blocks: [toolUse("Cancellable", { id: "c" }), toolUse("Blocking", { x: 1 })] }],
    });
    const running = (async () => {
      const results: Array<{ name: string; error: boolean; text: unknown }> = [];
      for await (const event of agent.submit("go"))
        if (event.type === "tool_result")
          results.push({
            name: event.result.toolName,
            error: event.result.isError,
            text: event.result.block.content,
          });
        else if (event.type === "end") return { results, reason: event.outcome.reason };
      return { results, reason: "none" };
    })();
    await blockingStarted.promise;
    await until(() => cancellable.running() === 1, "the cancellable call running");
    agent.interrupt();
    blockingRelease.open();
    const { results, reason } = await running;
    expect(reason).toBe("interrupted");
    expect(results).toEqual([
      { name: "Cancellable", error: true, text: expect.stringMatching(/Interrupted/) },
      { name: "Blocking", error: false, text: "finished anyway" },
    ]);
    // Every tool_use in the conversation has its tool_result.
    const last = agent.messages.at(-1);
    expect(last?.role).toBe("user");
    expect(Array.isArray(last?.content) && last.content.map((b) => b.type)).toEqual([
      "tool_result",
      "tool_result",
    ]);
  });
});
