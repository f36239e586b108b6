import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { ToolError } from "../tool/errors.ts";
import { buildTool } from "../tool/Tool.ts";
import { type PipelineEvent, type ResultEvent, runToolUse } from "./runToolUse.ts";
import type { AuditRecord, PipelineServices, PreToolUseHookResult, ToolHookRunner } from "./services.ts";
import { call, echoTool, Latch, testContext, until } from "./testing/tools.ts";

async function collect(
  events: AsyncGenerator<PipelineEvent>,
): Promise<{ result: ResultEvent; progress: unknown[] }> {
  const progress: unknown[] = [];
  let result: ResultEvent | undefined;
  for await (const event of events) {
    if (event.type === "progress") progress.push(event.data);
    else {
      expect(result).toBeUndefined();
      result = event;
    }
  }
  expect(result).toBeDefined();
  return { result: result!, progress };
}

const noHook: PreToolUseHookResult = { additionalContext: [], userMessages: [], outcomes: [] };

function recordingHooks(log: string[], pre: Partial<PreToolUseHookResult> = {}): ToolHookRunner {
  return {
    async preToolUse({ input }) {
      log.push(`pre-hook ${JSON.stringify(input)}`);
      return { ...noHook, ...pre };
    },
    async postToolUse({ response }) {
      log.push(`post-hook ${JSON.stringify(response)}`);
      return { additionalContext: ["post context"], userMessages: [], outcomes: [] };
    },
    async postToolUseFailure({ error }) {
      log.push(`failure-hook ${error}`);
      return { additionalContext: [], userMessages: [], outcomes: [] };
    },
  };
}

describe("runToolUse: every error path is a result", () => {
  const echo = echoTool();
  const allowAll = { allow: ["Echo"] };

  it("names the available tools for an unknown tool", async () => {
    const { result } = await collect(runToolUse(call("Nope", {}), testContext([echo])));
    expect(result.isError).toBe(true);
    expect(result.errorCode).toBe("unknown_tool");
    expect(result.block.content).toContain("Available tools: Echo");
  });

  it("names the tool a misspelt name most likely meant", async () => {
    const { result } = await collect(runToolUse(call("Ecko", {}), testContext([echo])));
    expect(result.errorCode).toBe("unknown_tool");
    expect(result.block.content).toBe('No tool named "Ecko"; did you mean "Echo"? Available tools: Echo.');
  });

  it("finds a tool by alias", async () => {
    const aliased = echoTool({ aliases: ["Say"] });
    const { result } = await collect(
      runToolUse(call("Say", { text: "hi" }), testContext([aliased], allowAll)),
    );
    expect(result.block.content).toBe("hi");
  });

  it("stops at once when already aborted", async () => {
    const context = testContext([echo], allowAll);
    context.abortController.abort();
    const { result } = await collect(runToolUse(call("Echo", { text: "x" }), context));
    expect(result.errorCode).toBe("aborted");
  });

  it("reports malformed JSON without crashing", async () => {
    const { result } = await collect(
      runToolUse(call("Echo", '{"text": "unterminated'), testContext([echo], allowAll)),
    );
    expect(result.errorCode).toBe("invalid_json");
    expect(result.block.content).toMatch(/not valid JSON/);
  });

  it("accepts JSON text arguments", async () => {
    const { result } = await collect(
      runToolUse(call("Echo", '{"text":"from json"}'), testContext([echo], allowAll)),
    );
    expect(result.block.content).toBe("from json");
  });

  it("reports schema errors per field", async () => {
    const tool = buildTool<{ a: string; b: number }>({
      name: "Two",
      inputSchema: z.strictObject({ a: z.string(), b: z.number() }),
      maxResultSizeChars: 100,
      description: () => "",
      prompt: () => "",
      call: async () => ({ data: "" }),
    });
    const { result } = await collect(runToolUse(call("Two", { a: 1, b: "x", c: true }), testContext([tool])));
    expect(result.errorCode).toBe("invalid_input");
    const text = String(result.block.content);
    expect(text).toContain("`a`");
    expect(text).toContain("`b`");
    expect(text).toContain('`(input)`: unknown field "c"; remove it');
  });

  it.each([
    [
      "thousands of stray keys",
      { a: "x", b: 1, ...Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [`key_${i}`, 1])) },
      /unknown fields "key_0", .* and 149980 more; remove them/,
    ],
    [
      "a huge stray key",
      { a: "x", b: 1, ["k".repeat(2_000_000)]: 1 },
      /unknown field "k{60}… \[1999940 more characters not shown\]"/,
    ],
    [
      "thousands of bad items",
      { a: "x", b: 1, list: Array.from({ length: 50_000 }, () => "not a number") },
      /and 49980 more problems/,
    ],
  ])("keeps the schema error short for %s", async (_name, input, expected) => {
    const tool = buildTool<{ a: string; b: number; list?: number[] }>({
      name: "Two",
      inputSchema: z.strictObject({ a: z.string(), b: z.number(), list: z.array(z.number()).optional() }),
      maxResultSizeChars: 100,
      description: () => "",
      prompt: () => "",
      call: async () => ({ data: "" }),
    });
    const { result } = await collect(runToolUse(call("Two", input), testContext([tool])));
    expect(result.errorCode).toBe("invalid_input");
    const text = String(result.block.content);
    expect(text).toMatch(expected);
    expect(text.length).toBeLessThan(8_000);
  });

  it("reports a validateInput failure with its code", async () => {
    const tool = echoTool({
      validateInput: () => ({ result: false, message: "Read the file first.", errorCode: "not_read" }),
    });
    const { result } = await collect(runToolUse(call("Echo", { text: "x" }), testContext([tool], allowAll)));
    expect(result.errorCode).toBe("not_read");
    expect(result.block.content).toBe("Read the file first.");
  });

  it("turns a throwing validateInput into an error result", async () => {
    const tool = echoTool({
      validateInput: () => {
        throw new Error("boom");
      },
    });
    const { result } = await collect(runToolUse(call("Echo", { text: "x" }), testContext([tool], allowAll)));
    expect(result.errorCode).toBe("validation_failed");
  });

  it("refuses when a rule denies, with who decided", async () => {
    const { result } = await collect(
      runToolUse(call("Echo", { text: "x" }), testContext([echo], { deny: ["Echo"] })),
    );
    expect(result.errorCode).toBe("permission_denied");
    expect(result.decision?.behavior).toBe("deny");
    expect(result.decision?.decidedBy).toContain("deny rule Echo from cliArg");
  });

  it("denies an ask when nobody can be asked (non-interactive)", async () => {
    const { result } = await collect(runToolUse(call("Echo", { text: "x" }), testContext([echo])));
    expect(result.errorCode).toBe("permission_denied");
    expect(result.decision?.reason.type).toBe("noPrompter");
    expect(result.block.content).toMatch(/nobody can give it/);
  });

  it("asks the prompter and runs when the user allows", async () => {
    const asked: string[] = [];
    const services: PipelineServices = {
      prompter: {
        name: "test",
        async ask(request) {
          asked.push(request.tool.name);
          return { behavior: "allow", choice: "once" };
        },
      },
    };
    const { result } = await collect(runToolUse(call("Echo", { text: "ok" }), testContext([echo]), services));
    expect(asked).toEqual(["Echo"]);
    expect(result.block.content).toBe("ok");
    expect(result.decision?.reason).toMatchObject({ type: "user", choice: "once" });
  });

  it("reports a user refusal", async () => {
    const services: PipelineServices = {
      prompter: { name: "test", ask: async () => ({ behavior: "deny", reason: "not now" }) },
    };
    const { result } = await collect(runToolUse(call("Echo", { text: "x" }), testContext([echo]), services));
    expect(result.isError).toBe(true);
    expect(result.block.content).toMatch(/refused.*not now/);
  });

  it("turns a tool's exception into an error result", async () => {
    const tool = echoTool({
      call: async () => {
        throw new TypeError("cannot read x of undefined");
      },
    });
    const { result } = await collect(runToolUse(call("Echo", { text: "x" }), testContext([tool], allowAll)));
    expect(result.errorCode).toBe("tool_failed");
    expect(result.block.content).toContain("cannot read x of undefined");
  });

  it("keeps a ToolError's code and message", async () => {
    const tool = echoTool({
      call: async () => {
        throw new ToolError("not_unique", "Found 3 matches; add context.");
      },
    });
    const { result } = await collect(runToolUse(call("Echo", { text: "x" }), testContext([tool], allowAll)));
    expect(result.errorCode).toBe("not_unique");
    expect(result.block.content).toBe("Found 3 matches; add context.");
  });

  it("turns a throwing checkPermissions into an ask in every mode, never an allow", async () => {
    const tool = echoTool({
      checkPermissions: async () => {
        throw new Error("broken check");
      },
    });
    for (const options of [allowAll, { mode: "bypassPermissions" as const }, {}]) {
      const { result } = await collect(runToolUse(call("Echo", { text: "x" }), testContext([tool], options)));
      expect(result.errorCode).toBe("permission_denied");
      expect(result.block.content).toContain("permission check failed: broken check");
    }
  });

  it("returns promptly when aborted during the call, and the tool sees the signal", async () => {
    let sawAbort = false;
    const started = new Latch();
    const tool = echoTool({
      async call(_input, context) {
        started.open();
        await new Promise<void>((resolve) =>
          context.abortController.signal.addEventListener("abort", () => resolve()),
        );
        sawAbort = true;
        return { data: "late" };
      },
    });
    const context = testContext([tool], allowAll);
    const running = collect(runToolUse(call("Echo", { text: "x" }), context));
    await started.promise;
    context.abortController.abort();
    const { result } = await running;
    expect(result.errorCode).toBe("aborted");
    expect(sawAbort).toBe(true);
  });

  it("checks output against the output schema", async () => {
    const tool = echoTool({ outputSchema: z.number() });
    const { result } = await collect(runToolUse(call("Echo", { text: "x" }), testContext([tool], allowAll)));
    expect(result.errorCode).toBe("invalid_output");
  });

  it("marks an empty result", async () => {
    const { result } = await collect(runToolUse(call("Echo", { text: "" }), testContext([echo], allowAll)));
    expect(result.block.content).toBe("(Echo completed with no output)");
    expect(result.isError).toBe(false);
  });

  it("yields tool progress before the result", async () => {
    const tool = echoTool({
      async call(input, _context, _can, _parent, onProgress) {
        onProgress({ toolUseId: "x", data: "step 1" });
        onProgress({ toolUseId: "x", data: "step 2" });
        return { data: input.text };
      },
    });
    const { progress } = await collect(
      runToolUse(call("Echo", { text: "x" }), testContext([tool], allowAll)),
    );
    expect(progress).toEqual(["step 1", "step 2"]);
  });
});

describe("runToolUse: step order", () => {
  it("validates the schema before permissions, and permissions before hooks", async () => {
    const log: string[] = [];
    const tool = echoTool({
      validateInput: (input) => {
        log.push(`validate ${input.text}`);
        return { result: true };
      },
      checkPermissions: async (input) => {
        log.push(`permissions ${input.text}`);
        return { behavior: "allow", updatedInput: input };
      },
      async call(input) {
        log.push(`call ${input.text}`);
        return { data: input.text };
      },
    });
    const services = { hooks: recordingHooks(log) };
    await collect(runToolUse(call("Echo", { text: 42 }), testContext([tool]), services));
    expect(log).toEqual([]); // schema-invalid input reaches no step after the schema
    await collect(runToolUse(call("Echo", { text: "a" }), testContext([tool]), services));
    expect(log).toEqual(["validate a", "permissions a", 'pre-hook {"text":"a"}', "call a", 'post-hook "a"']);
  });

  it("never runs hooks for a call a rule denies", async () => {
    const log: string[] = [];
    await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([echoTool()], { deny: ["Echo"] }), {
        hooks: recordingHooks(log),
      }),
    );
    expect(log).toEqual([]);
  });

  it("a hook allow approves an ordinary ask but never overrides an ask rule or a deny rule", async () => {
    const hooks = recordingHooks([], { decision: "allow", hookName: "approve.sh" });
    const plain = await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([echoTool()]), { hooks }),
    );
    expect(plain.result.block.content).toBe("a");
    expect(plain.result.decision?.reason).toMatchObject({ type: "hook", hookName: "approve.sh" });
    const askRule = await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([echoTool()], { ask: ["Echo"] }), { hooks }),
    );
    expect(askRule.result.errorCode).toBe("permission_denied");
    const denyRule = await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([echoTool()], { deny: ["Echo"] }), { hooks }),
    );
    expect(denyRule.result.decision?.reason.type).toBe("rule");
  });

  it("a hook deny blocks an allowed call", async () => {
    const hooks = recordingHooks([], {
      decision: "deny",
      reason: "no echo on Fridays",
      hookName: "policy.py",
    });
    const { result } = await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([echoTool()], { allow: ["Echo"] }), { hooks }),
    );
    expect(result.errorCode).toBe("hook_blocked");
    expect(result.block.content).toContain("no echo on Fridays");
  });

  it("a hook's rewritten input is validated and checked against the rules again", async () => {
    const seen: string[] = [];
    const tool = echoTool({
      checkPermissions: async (input) => {
        seen.push(input.text);
        return input.text === "safe"
          ? { behavior: "allow", updatedInput: input }
          : { behavior: "passthrough" };
      },
    });
    const rewrite = recordingHooks([], { decision: "allow", updatedInput: { text: "rewritten" } });
    const { result } = await collect(
      runToolUse(call("Echo", { text: "safe" }), testContext([tool], { deny: [] }), { hooks: rewrite }),
    );
    expect(seen).toEqual(["safe", "rewritten"]);
    expect(result.block.content).toBe("rewritten");
    const invalid = recordingHooks([], { updatedInput: { text: 5 } as unknown as Record<string, unknown> });
    const bad = await collect(
      runToolUse(call("Echo", { text: "safe" }), testContext([tool]), { hooks: invalid }),
    );
    expect(bad.result.errorCode).toBe("invalid_input");
  });

  it("a hook ask forces a prompt even when a rule allows", async () => {
    const hooks = recordingHooks([], { decision: "ask", reason: "double check" });
    const { result } = await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([echoTool()], { allow: ["Echo"] }), { hooks }),
    );
    expect(result.errorCode).toBe("permission_denied");
    expect(result.decision?.reason.type).toBe("noPrompter");
  });

  it("PostToolUseFailure hooks run when the tool throws", async () => {
    const log: string[] = [];
    const tool = echoTool({
      call: async () => {
        throw new Error("kaput");
      },
    });
    await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([tool], { allow: ["Echo"] }), {
        hooks: recordingHooks(log),
      }),
    );
    expect(log.at(-1)).toContain("failure-hook Echo failed: kaput");
  });

  it("post hook context reaches the result", async () => {
    const { result } = await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([echoTool()], { allow: ["Echo"] }), {
        hooks: recordingHooks([]),
      }),
    );
    expect(result.additionalContext).toEqual(["post context"]);
  });
});

describe("runToolUse: the speculative classifier", () => {
  it("runs concurrently with the permission step (a latch only the other side opens)", async () => {
    const classifierStarted = new Latch();
    const permissionReached = new Latch();
    const tool = echoTool({
      checkPermissions: async () => {
        permissionReached.open();
        // If the classifier ran after this step, this wait would never end.
        await classifierStarted.promise;
        return { behavior: "passthrough" };
      },
    });
    const services: PipelineServices = {
      classifier: {
        name: "test-classifier",
        async classify() {
          classifierStarted.open();
          await permissionReached.promise;
          return { behavior: "allow", reason: "harmless echo" };
        },
      },
    };
    const { result } = await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([tool], { mode: "auto" }), services),
    );
    expect(result.block.content).toBe("a");
    expect(result.decision?.reason).toEqual({
      type: "classifier",
      classifier: "test-classifier",
      reason: "harmless echo",
    });
  });

  it("cannot override an ask rule", async () => {
    const services: PipelineServices = {
      classifier: { name: "c", classify: async () => ({ behavior: "allow", reason: "ok" }) },
    };
    const { result } = await collect(
      runToolUse(
        call("Echo", { text: "a" }),
        testContext([echoTool()], { ask: ["Echo"], mode: "auto" }),
        services,
      ),
    );
    expect(result.isError).toBe(true);
  });

  it("outside auto mode judges but never decides; its verdict is recorded with the decision", async () => {
    const audit: AuditRecord[] = [];
    const services: PipelineServices = {
      audit: { record: (entry) => audit.push(entry) },
      classifier: { name: "c", classify: async () => ({ behavior: "allow", reason: "looks harmless" }) },
    };
    const { result } = await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([echoTool()]), services),
    );
    expect(result.decision?.reason.type).toBe("noPrompter");
    expect(audit).toHaveLength(1);
    expect(audit[0]?.classifier).toMatchObject({ behavior: "allow", reason: "looks harmless" });
  });

  it("a verdict that comes after the decision is recorded, linked to the call by its tool_use_id", async () => {
    const audit: AuditRecord[] = [];
    const answer = new Latch();
    const services: PipelineServices = {
      audit: { record: (entry) => audit.push(entry) },
      classifier: {
        name: "c",
        classify: async () => {
          await answer.promise;
          return { behavior: "ask", reason: "writes outside the task" };
        },
      },
    };
    const { result } = await collect(
      runToolUse(
        call("Echo", { text: "a" }, "tu_late"),
        testContext([echoTool()], { allow: ["Echo"] }),
        services,
      ),
    );
    expect(result.block.content).toBe("a");
    expect(audit).toHaveLength(1);
    expect(audit[0]?.classifier).toBeUndefined();
    answer.open();
    await until(() => audit.length === 2, "the late verdict");
    expect(audit[1]).toMatchObject({
      toolUseId: "tu_late",
      classifierVerdictFor: "tu_late",
      behavior: "allow",
      classifier: { behavior: "ask", reason: "writes outside the task" },
    });
  });

  it("a failing classifier leaves the ask standing", async () => {
    const services: PipelineServices = {
      classifier: {
        name: "c",
        classify: async () => {
          throw new Error("model down");
        },
      },
    };
    const { result } = await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([echoTool()]), services),
    );
    expect(result.decision?.reason.type).toBe("noPrompter");
  });
});

describe("runToolUse: results over budget and the audit", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("persists a large result and gives a notice with the path and a 2,000-byte preview", async () => {
    dir = await mkdtemp(join(tmpdir(), "keel-results-"));
    const big = `${"line of output\n".repeat(5000)}`;
    const tool = echoTool({ maxResultSizeChars: 1000 });
    const { result } = await collect(
      runToolUse(
        call("Echo", { text: big }, "call_1"),
        testContext([tool], { allow: ["Echo"], toolResultsDir: dir }),
      ),
    );
    const text = String(result.block.content);
    expect(text).toContain("<persisted-output>");
    expect(result.persistedPath).toBe(join(dir, "call_1.txt"));
    expect(text).toContain(result.persistedPath!);
    expect(await readFile(result.persistedPath!, "utf8")).toBe(big);
    const preview = text.slice(text.indexOf("Preview"), text.indexOf("\n...\n</persisted-output>"));
    expect(Buffer.byteLength(preview)).toBeLessThan(2100);
    expect(Buffer.byteLength(preview)).toBeGreaterThan(1500);
  });

  it("never persists a tool with an infinite budget, nor images", async () => {
    dir = await mkdtemp(join(tmpdir(), "keel-results-"));
    const reader = echoTool({ maxResultSizeChars: Number.POSITIVE_INFINITY });
    const big = "x".repeat(200_000);
    const { result } = await collect(
      runToolUse(
        call("Echo", { text: big }),
        testContext([reader], { allow: ["Echo"], toolResultsDir: dir }),
      ),
    );
    expect(result.block.content).toBe(big);
    const image = echoTool({
      maxResultSizeChars: 10,
      mapToolResultToToolResultBlockParam: (_output, id) => ({
        type: "tool_result",
        tool_use_id: id,
        content: [
          { type: "image", source: { type: "base64", media_type: "image/png", data: "A".repeat(5000) } },
          { type: "text", text: "y".repeat(100) },
        ],
      }),
    });
    const images = await collect(
      runToolUse(call("Echo", { text: "i" }), testContext([image], { allow: ["Echo"], toolResultsDir: dir })),
    );
    expect(Array.isArray(images.result.block.content)).toBe(true);
  });

  it("records every call in the audit sink with who decided", async () => {
    const records: AuditRecord[] = [];
    const services: PipelineServices = { audit: { record: (entry) => records.push(entry) } };
    const context = testContext([echoTool()], { allow: ["Echo"] });
    await collect(runToolUse(call("Echo", { text: "a" }), context, services));
    await collect(runToolUse(call("Echo", { text: 1 }), context, services));
    await collect(runToolUse(call("Missing", {}), context, services));
    expect(records.map((r) => [r.tool, r.behavior, r.isError])).toEqual([
      ["Echo", "allow", false],
      ["Echo", "none", true],
      ["Missing", "none", true],
    ]);
    expect(records[0]!.decidedBy).toBe("allow rule Echo from cliArg settings");
    expect(records[0]!.resultChars).toBe(1);
    expect(records[1]!.errorCode).toBe("invalid_input");
  });
});

describe("runToolUse: a tool hidden by a blanket deny rule", () => {
  it.each([
    ["Echo", "Echo", "deny rule Echo from cliArg settings"],
    ["*", "Echo", "deny rule * from cliArg settings"],
    ["Ec*", "Echo", "deny rule Ec* from cliArg settings"],
    ["mcp__github", "mcp__github__create_issue", "deny rule mcp__github from cliArg settings"],
  ])("deny %s: a call to %s is refused by that rule, and audited so", async (rule, name, decidedBy) => {
    const records: AuditRecord[] = [];
    const services: PipelineServices = { audit: { record: (entry) => records.push(entry) } };
    // The pool lacks the tool, as it does when the session assembles it with the deny rule.
    const context = testContext([], { deny: [rule] });
    const { result } = await collect(runToolUse(call(name, {}), context, services));
    expect(result).toMatchObject({ isError: true, errorCode: "permission_denied" });
    expect(result.block.content).toContain(`${name} is not available: the ${decidedBy} denies it`);
    expect(result.decision).toMatchObject({ behavior: "deny", decidedBy });
    expect(records[0]).toMatchObject({
      tool: name,
      behavior: "deny",
      decidedBy,
      errorCode: "permission_denied",
    });
  });

  it("a name no rule covers is still an unknown tool", async () => {
    const context = testContext([], { deny: ["Other", "Echo(x)", "mcp__github"] });
    for (const name of ["Echo", "mcp__githubber__x"]) {
      const { result } = await collect(runToolUse(call(name, {}), context));
      expect(result.errorCode).toBe("unknown_tool");
      expect(result.decision).toBeUndefined();
    }
  });
});

describe("runToolUse: PermissionRequest hooks and approved input", () => {
  const withPermissionRequest = (
    decision:
      | { behavior: "allow" | "deny"; updatedInput?: Record<string, unknown>; message?: string }
      | undefined,
  ): ToolHookRunner => ({
    ...recordingHooks([]),
    async permissionRequest() {
      return {
        ...(decision ? { decision: { ...decision, hookName: "approver.sh" } } : {}),
        userMessages: [],
        outcomes: [
          { hookName: "approver.sh", event: "PermissionRequest", outcome: "success", durationMs: 1 },
        ],
      };
    },
  });

  it("a PermissionRequest hook answers an ask before anyone is asked", async () => {
    const allowed = await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([echoTool()]), {
        hooks: withPermissionRequest({ behavior: "allow" }),
      }),
    );
    expect(allowed.result.block.content).toBe("a");
    expect(allowed.result.decision?.reason).toMatchObject({ type: "hook", hookName: "approver.sh" });
    const denied = await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([echoTool()]), {
        hooks: withPermissionRequest({ behavior: "deny", message: "not today" }),
      }),
    );
    expect(denied.result.block.content).toContain("not today");
  });

  it("no answer from the hook leaves the question to the person (or to nobody)", async () => {
    const { result } = await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([echoTool()]), {
        hooks: withPermissionRequest(undefined),
      }),
    );
    expect(result.decision?.reason.type).toBe("noPrompter");
  });

  it("an input rewritten while approving must pass the schema", async () => {
    const bad = await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([echoTool()]), {
        hooks: withPermissionRequest({ behavior: "allow", updatedInput: { text: 7 } }),
      }),
    );
    expect(bad.result.isError).toBe(true);
    expect(bad.result.block.content).toMatch(/not valid/);
    const services: PipelineServices = {
      prompter: {
        name: "t",
        ask: async () => ({ behavior: "allow", choice: "once", updatedInput: { nope: true } }),
      },
    };
    const viaPrompter = await collect(
      runToolUse(call("Echo", { text: "a" }), testContext([echoTool()]), services),
    );
    expect(viaPrompter.result.isError).toBe(true);
  });
});
