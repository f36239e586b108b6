// Approvals through the real pipeline: the terminal prompter on real streams, the library callback,
// and nobody to ask.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PipelineServices, Prompter } from "../../pipeline/services.ts";
import { echoTool, pipelineResult } from "../../pipeline/testing/tools.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { createToolUseContext } from "../../tool/createContext.ts";
import type { Tool } from "../../tool/Tool.ts";
import { listRules } from "../matchers.ts";
import { formatRuleValue } from "../rules.ts";
import { callbackPrompter, choosePrompter, terminalPrompter } from "./index.ts";

let dir: string;
let context: ToolUseContext;
const echo = echoTool();
// A tool that reads its own content rules and asks with a suggestion, like Bash does.
const suggesting = echoTool({
  name: "Suggest",
  checkPermissions: async (input, ctx) => {
    const rule = `Suggest(${input.text})`;
    const allowed = listRules(ctx.getAppState().toolPermissionContext, "allow").some(
      (r) => formatRuleValue(r.value) === rule,
    );
    if (allowed) return { behavior: "allow", updatedInput: input };
    return {
      behavior: "ask",
      message: "Suggest wants approval",
      suggestions: [{ behavior: "allow", rule, destination: "local" }],
    };
  },
});
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "keel-prompt-")));
  context = createToolUseContext({ tools: [echo, suggesting], cwd: dir, isNonInteractiveSession: false });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
async function run(
  services: PipelineServices,
  input: Record<string, unknown> = { text: "hi" },
  tool: Tool = echo,
) {
  return pipelineResult({ type: "tool_use", id: `t${counter++}`, name: tool.name, input }, context, services);
}

function terminal(answers: string[], persist = true) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = "";
  output.on("data", (chunk) => {
    shown += String(chunk);
  });
  for (const answer of answers) input.write(`${answer}\n`);
  return { prompter: terminalPrompter({ input, output, persist }), input, shown: () => shown };
}

describe("terminal prompter", () => {
  it("yes runs the call once and says who decided", async () => {
    const { prompter, shown } = terminal(["y"]);
    const result = await run({ prompter });
    expect(result.isError).toBe(false);
    expect(result.decision?.decidedBy).toBe("user via terminal (once)");
    // The call as it will run, why it asks, then numbered choices that say where "don't ask again" goes.
    expect(shown()).toContain('Echo({"text":"hi"})');
    expect(shown()).toMatch(/Approval needed: Echo needs approval: no rule allows this call\n/);
    expect(shown()).not.toMatch(/default|no rule matched|model|Shift\+Tab/);
    expect(shown()).toContain("  1  Yes\n");
    expect(shown()).toContain(`  2  Yes, and don't ask again for Echo in ${dir}\n`);
    expect(shown()).toContain(
      `     Adds the allow rule Echo to ${join(dir, ".keel", "settings.local.json")}.\n`,
    );
    expect(shown()).toContain("  3  No (a reason may follow: n use the test script instead)\n");
    expect(shown()).toContain("Allow? [1/2/3] ");
  });

  it("no refuses with the person's reason passed to the model", async () => {
    const { prompter } = terminal(["n use the test script instead"]);
    const result = await run({ prompter });
    expect(result.isError).toBe(true);
    expect(result.block.content).toMatch(/refused this Echo call: use the test script instead/);
  });

  it("always writes the suggested rule atomically, keeps the file's keys, and stops asking", async () => {
    mkdirSync(join(dir, ".keel"));
    const file = join(dir, ".keel", "settings.local.json");
    writeFileSync(file, JSON.stringify({ env: { A: "1" }, permissions: { deny: ["Read"] } }));
    const { prompter, input } = terminal(["a"]);
    const first = await run({ prompter }, { text: "npm test" }, suggesting);
    input.end();
    expect(first.decision?.decidedBy).toBe("user via terminal (always)");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      env: { A: "1" },
      permissions: { deny: ["Read"], allow: ["Suggest(npm test)"] },
    });
    // The input has ended: a second question would be refused. The rule answers instead.
    const second = await run({ prompter }, { text: "npm test" }, suggesting);
    expect(second.isError).toBe(false);
    expect(second.decision?.decidedBy).toMatch(/the tool's own check/);
    expect(context.getAppState().toolPermissionContext.alwaysAllowRules).toEqual({
      local: ["Suggest(npm test)"],
    });
  });

  it("always (by its number) in an untrusted folder applies for the session only", async () => {
    const { prompter } = terminal(["2"], false);
    expect((await run({ prompter })).isError).toBe(false);
    expect(context.getAppState().toolPermissionContext.alwaysAllowRules).toEqual({ session: ["Echo"] });
    expect(() => readFileSync(join(dir, ".keel", "settings.local.json"))).toThrow();
  });

  it("asks again on an unclear answer, and refuses when the input ends", async () => {
    const { prompter, input, shown } = terminal(["maybe", "y"]);
    expect((await run({ prompter })).isError).toBe(false);
    expect(shown()).toContain("Please answer 1 (y), 2 (a), 3 (n).");
    input.end();
    const closed = await run({ prompter });
    expect(closed.isError).toBe(true);
    expect(closed.block.content).toMatch(/no answer \(input closed\)/);
  });

  it("asks one question at a time, in order, when calls ask in parallel", async () => {
    const { prompter, shown } = terminal(["y", "n"]);
    const [a, b] = await Promise.all([
      run({ prompter }, { text: "first" }),
      run({ prompter }, { text: "second" }),
    ]);
    expect([a.isError, b.isError]).toEqual([false, true]);
    expect(shown().indexOf("first")).toBeLessThan(shown().indexOf("second"));
  });
});

describe("callback prompter (library canUseTool)", () => {
  it.each([
    ["allow", () => ({ behavior: "allow" as const }), false, "user via canUseTool (once)"],
    ["deny", () => ({ behavior: "deny" as const, message: "not today" }), true, undefined],
    [
      "a throw",
      () => {
        throw new Error("callback bug");
      },
      true,
      undefined,
    ],
    ["garbage", () => ({ behavior: "sure" }) as never, true, undefined],
    ["undefined", () => undefined as never, true, undefined],
  ])("%s", async (_name, callback, isError, decidedBy) => {
    const result = await run({ prompter: callbackPrompter(callback) });
    expect(result.isError).toBe(isError);
    if (decidedBy) expect(result.decision?.decidedBy).toBe(decidedBy);
  });

  it("passes name, input and suggestions; applies updatedInput and keeps updatedPermissions for the session", async () => {
    const seen: unknown[] = [];
    const prompter = callbackPrompter((name, input, options) => {
      seen.push({ name, input, suggestions: options.suggestions });
      return {
        behavior: "allow",
        updatedInput: { text: "changed" },
        updatedPermissions: [{ behavior: "allow", rule: "Suggest(changed)", destination: "session" }],
      };
    });
    const result = await run({ prompter }, { text: "orig" }, suggesting);
    expect(result.block.content).toBe("changed");
    expect(result.decision?.decidedBy).toBe("user via canUseTool (always)");
    expect(seen).toEqual([
      {
        name: "Suggest",
        input: { text: "orig" },
        suggestions: [{ behavior: "allow", rule: "Suggest(orig)", destination: "local" }],
      },
    ]);
    expect(context.getAppState().toolPermissionContext.alwaysAllowRules).toEqual({
      session: ["Suggest(changed)"],
    });
  });
});

describe("nobody to ask", () => {
  it("refuses with the reason when no prompter exists", async () => {
    const prompter: Prompter | undefined = choosePrompter({});
    expect(prompter).toBeUndefined();
    const result = await run(prompter ? { prompter } : {});
    expect(result.isError).toBe(true);
    expect(result.decision?.reason.type).toBe("noPrompter");
    expect(result.block.content).toMatch(/nobody can give it in this session/);
  });

  it("dontAsk refuses every ask even with a prompter present", async () => {
    context = createToolUseContext({ tools: [echo], cwd: dir, mode: "dontAsk" });
    const { prompter, shown } = terminal(["y"]);
    const result = await run({ prompter });
    expect(result.isError).toBe(true);
    expect(result.block.content).toMatch(/dontAsk/);
    expect(shown()).toBe("");
  });

  it("a library callback wins over a terminal", () => {
    const chosen = choosePrompter({
      canUseTool: () => ({ behavior: "deny" }),
      terminal: { input: new PassThrough(), output: new PassThrough(), close: () => {} },
    });
    expect(chosen?.name).toBe("canUseTool");
  });
});
