import { describe, expect, it } from "vitest";
import type { ToolUseContext } from "../tool/context.ts";
import { partitionToolCalls, runToolCalls } from "./orchestrate.ts";
import type { PipelineEvent, ResultEvent } from "./runToolUse.ts";
import { StreamingToolExecutor } from "./StreamingToolExecutor.ts";
import { call, echoTool, gatedTool, testContext, until } from "./testing/tools.ts";

async function drain(
  generator: AsyncGenerator<PipelineEvent, ToolUseContext>,
): Promise<{ results: ResultEvent[]; context: ToolUseContext }> {
  const results: ResultEvent[] = [];
  for (;;) {
    const next = await generator.next();
    if (next.done) return { results, context: next.value };
    if (next.value.type === "result") results.push(next.value);
  }
}

describe("partitionToolCalls", () => {
  const reader = gatedTool("R", { safe: true }).tool;
  const writer = gatedTool("W", { safe: false }).tool;
  const tools = [reader, writer];

  it("groups [R,R,W,R,R] as [R,R] [W] [R,R]", () => {
    const calls = ["R", "R", "W", "R", "R"].map((name, i) => call(name, { id: String(i) }));
    expect(
      partitionToolCalls(calls, tools).map((b) => [
        b.parallel,
        b.calls.map((c) => (c.input as { id: string }).id),
      ]),
    ).toEqual([
      [true, ["0", "1"]],
      [false, ["2"]],
      [true, ["3", "4"]],
    ]);
  });

  it("puts unknown tools, unparseable and invalid input alone", () => {
    const calls = [
      call("R", { id: "a" }),
      call("Nope", {}),
      call("R", "{bad json"),
      call("R", { id: 5 }),
      call("R", { id: "b" }),
    ];
    expect(partitionToolCalls(calls, tools).map((b) => b.calls.length)).toEqual([1, 1, 1, 1, 1]);
  });

  it("a safe flag that throws counts as unsafe", () => {
    const odd = echoTool({
      name: "Odd",
      isConcurrencySafe: () => {
        throw new Error("x");
      },
    });
    const calls = [call("Odd", { text: "a" }), call("Odd", { text: "b" })];
    expect(partitionToolCalls(calls, [odd]).map((b) => b.parallel)).toEqual([false, false]);
  });
});

describe("runToolCalls", () => {
  it("runs [R,R,W,R,R] as [R,R] [W] [R,R] with results in call order", async () => {
    const r = gatedTool("R", { safe: true });
    const w = gatedTool("W", { safe: false });
    const sharedLog: string[] = [];
    const context = testContext([r.tool, w.tool]);
    const calls = [
      call("R", { id: "r1" }, "1"),
      call("R", { id: "r2" }, "2"),
      call("W", { id: "w3" }, "3"),
      call("R", { id: "r4" }, "4"),
      call("R", { id: "r5" }, "5"),
    ];
    const running = drain(runToolCalls(calls, context));
    await until(() => r.log.length === 2, "both reads started");
    expect(w.log).toEqual([]);
    r.release("r2");
    r.release("r1");
    await until(() => w.log.length === 1, "write started");
    expect(r.running()).toBe(0);
    w.release("w3");
    await until(() => r.log.filter((l) => l.startsWith("start")).length === 4, "second reads started");
    r.release("r5");
    r.release("r4");
    const { results } = await running;
    sharedLog.push(...results.map((res) => res.toolUseId));
    expect(sharedLog).toEqual(["1", "2", "3", "4", "5"]);
    expect(r.maxRunning()).toBe(2);
    expect(w.maxRunning()).toBe(1);
  });

  it("holds the concurrency cap", async () => {
    const r = gatedTool("R", { safe: true });
    const calls = Array.from({ length: 7 }, (_, i) => call("R", { id: `c${i}` }, `id${i}`));
    const running = drain(runToolCalls(calls, testContext([r.tool]), {}, { maxConcurrency: 3 }));
    await until(() => r.running() === 3, "three running");
    for (let i = 0; i < 7; i++) {
      r.release(`c${i}`);
      await until(() => r.log.includes(`end c${i}`), `c${i} ended`);
    }
    const { results } = await running;
    expect(results).toHaveLength(7);
    expect(r.maxRunning()).toBe(3);
  });

  it("aborting the session reaches running calls", async () => {
    const r = gatedTool("R", { safe: true });
    const context = testContext([r.tool]);
    const running = drain(runToolCalls([call("R", { id: "a" }), call("R", { id: "b" })], context));
    await until(() => r.running() === 2, "both running");
    context.abortController.abort();
    const { results } = await running;
    expect(results.map((res) => res.errorCode)).toEqual(["aborted", "aborted"]);
    await until(() => r.running() === 0, "tools saw the abort");
  });

  it("an error of a sibling-cancelling tool cancels its running siblings; other errors do not", async () => {
    const shell = gatedTool("Shell", { safe: true, cancelSiblings: true });
    const other = gatedTool("R", { safe: true });
    const context = testContext([shell.tool, other.tool]);
    const running = drain(
      runToolCalls(
        [
          call("Shell", { id: "s", fail: true }, "s"),
          call("R", { id: "a" }, "a"),
          call("R", { id: "b" }, "b"),
        ],
        context,
      ),
    );
    await until(() => shell.running() === 1 && other.running() === 2, "all running");
    shell.release("s");
    const { results } = await running;
    expect(results[0]!.block.content).toContain("s failed");
    expect(results[1]!.block.content).toBe("Cancelled: parallel tool call Shell(s) errored");
    expect(results[2]!.block.content).toBe("Cancelled: parallel tool call Shell(s) errored");

    const plain = gatedTool("P", { safe: true });
    const calm = drain(
      runToolCalls([call("P", { id: "x", fail: true }), call("P", { id: "y" })], testContext([plain.tool])),
    );
    await until(() => plain.running() === 2, "both running");
    plain.release("x");
    await until(() => plain.log.includes("end x"), "x ended");
    plain.release("y");
    const calmResults = (await calm).results;
    expect(calmResults[1]!.block.content).toBe("done y");
  });

  it("applies context changes of a parallel batch after it, in call order", async () => {
    const seen: string[] = [];
    const marker = (name: string) =>
      echoTool({
        name,
        isConcurrencySafe: true,
        checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
        async call(input, context) {
          seen.push(`${input.text} sees ${context.getAppState().cwd}`);
          return {
            data: input.text,
            contextModifier: (ctx) => ({
              ...ctx,
              messages: [...ctx.messages, { role: "user", content: input.text }],
            }),
          };
        },
      });
    const a = marker("A");
    const context = testContext([a]);
    const { context: after } = await drain(
      runToolCalls([call("A", { text: "one" }), call("A", { text: "two" })], context),
    );
    expect(after.messages.map((m) => m.content)).toEqual(["one", "two"]);
  });
});

describe("StreamingToolExecutor", () => {
  it("runs two safe calls together and holds an unsafe one until they finish", async () => {
    const r = gatedTool("R", { safe: true });
    const w = gatedTool("W", { safe: false });
    const executor = new StreamingToolExecutor(testContext([r.tool, w.tool]));
    executor.addTool(call("R", { id: "r1" }, "1"));
    executor.addTool(call("R", { id: "r2" }, "2"));
    executor.addTool(call("W", { id: "w" }, "3"));
    await until(() => r.running() === 2, "both reads running");
    expect(w.log).toEqual([]);
    r.release("r1");
    await until(() => r.log.includes("end r1"), "r1 done");
    expect(
      [...executor.getCompletedResults()].filter((e) => e.type === "result").map((e) => e.toolUseId),
    ).toEqual(["1"]);
    expect(w.log).toEqual([]);
    r.release("r2");
    await until(() => w.running() === 1, "write started after both reads");
    w.release("w");
    const rest: string[] = [];
    for await (const event of executor.getRemainingResults())
      if (event.type === "result") rest.push(event.toolUseId);
    expect(rest).toEqual(["2", "3"]);
  });

  it("starts a call as soon as it is added, before the message ends", async () => {
    const r = gatedTool("R", { safe: true });
    const executor = new StreamingToolExecutor(testContext([r.tool]));
    executor.addTool(call("R", { id: "early" }));
    await until(() => r.running() === 1, "started while streaming");
    r.release("early");
    const results = [];
    for await (const event of executor.getRemainingResults()) results.push(event);
    expect(results.filter((e) => e.type === "result")).toHaveLength(1);
  });

  it("a user interrupt cancels 'cancel' tools and lets 'block' tools finish", async () => {
    const cancellable = gatedTool("C", { safe: true });
    const blocking = echoTool({
      name: "B",
      isConcurrencySafe: true,
      interruptBehavior: () => "block",
      checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
      async call(input) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        return { data: `finished ${input.text}` };
      },
    });
    const executor = new StreamingToolExecutor(testContext([cancellable.tool, blocking]));
    executor.addTool(call("C", { id: "c" }, "c"));
    executor.addTool(call("B", { text: "b" }, "b"));
    await until(() => cancellable.running() === 1, "running");
    executor.interrupt();
    const byId: Record<string, string> = {};
    for await (const event of executor.getRemainingResults())
      if (event.type === "result") byId[event.toolUseId] = String(event.block.content);
    expect(byId.c).toBe("Interrupted by the user");
    expect(byId.b).toBe("finished b");
  });

  it("can be discarded: running calls are aborted and nothing more is yielded", async () => {
    const r = gatedTool("R", { safe: true });
    const executor = new StreamingToolExecutor(testContext([r.tool]));
    executor.addTool(call("R", { id: "x" }));
    await until(() => r.running() === 1, "running");
    executor.discard();
    await until(() => r.running() === 0, "aborted");
    const results = [];
    for await (const event of executor.getRemainingResults()) results.push(event);
    expect(results).toEqual([]);
  });

  it("a sibling-cancelling error cancels running siblings", async () => {
    const shell = gatedTool("Shell", { safe: true, cancelSiblings: true });
    const r = gatedTool("R", { safe: true });
    const executor = new StreamingToolExecutor(testContext([shell.tool, r.tool]));
    executor.addTool(call("Shell", { id: "s", fail: true }, "s"));
    executor.addTool(call("R", { id: "r" }, "r"));
    await until(() => r.running() === 1 && shell.running() === 1, "running");
    shell.release("s");
    const byId: Record<string, string> = {};
    for await (const event of executor.getRemainingResults())
      if (event.type === "result") byId[event.toolUseId] = String(event.block.content);
    expect(byId.r).toBe("Cancelled: parallel tool call Shell(s) errored");
  });
});

describe("a tool's prepare step (Tool.prepare)", () => {
  /** A reader whose safety is known only once something has loaded, as Bash's is once its grammar has. */
  function lateReader() {
    const gated = gatedTool("L", { safe: true });
    let loaded = false;
    const tool = {
      ...gated.tool,
      prepare: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        loaded = true;
      },
      isConcurrencySafe: () => loaded,
    };
    return { ...gated, tool };
  }

  it("runToolCalls batches by the prepared answer, not the one before loading", async () => {
    const late = lateReader();
    const running = drain(
      runToolCalls([call("L", { id: "a" }, "1"), call("L", { id: "b" }, "2")], testContext([late.tool])),
    );
    await until(() => late.running() === 2, "both reads running together");
    late.release("a");
    late.release("b");
    expect((await running).results.map((result) => result.toolUseId)).toEqual(["1", "2"]);
  });

  it("the streaming executor waits for the prepared answer, in arrival order", async () => {
    const late = lateReader();
    const executor = new StreamingToolExecutor(testContext([late.tool]));
    executor.addTool(call("L", { id: "a" }, "1"));
    executor.addTool(call("L", { id: "b" }, "2"));
    expect(late.running()).toBe(0);
    await until(() => late.running() === 2, "both reads running together");
    late.release("a");
    late.release("b");
    const ids: string[] = [];
    for await (const event of executor.getRemainingResults())
      if (event.type === "result") ids.push(event.toolUseId);
    expect(ids).toEqual(["1", "2"]);
  });
});
