// Matching rules costs what the rules naming the tool cost, however many rules name other tools: the
// tool's matcher is asked about its own rules only, the candidates are its rules only, and the index
// behind them is built once per rule set. Decisions are the same as a scan of every rule would give.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { createToolUseContext } from "../tool/createContext.ts";
import { buildTool, type Tool } from "../tool/Tool.ts";
import { decidePermission } from "./engine.ts";
import { findBlanketDenyForName, findBlanketRule, findContentRule } from "./matchers.ts";
import { contentRulesNaming, ruleIndex, rulesNaming } from "./ruleIndex.ts";
import { formatRuleValue } from "./rules.ts";

type Input = { target: string };

/** A tool whose content matcher counts how often it is asked (the specifier is a prefix of the target). */
function countingTool(name: string, extra: { aliases?: string[]; families?: string[] } = {}) {
  const counter = { calls: 0 };
  const tool = buildTool<Input>({
    name,
    ...(extra.aliases ? { aliases: extra.aliases } : {}),
    ...(extra.families ? { permissionRuleNames: [name, ...extra.families] } : {}),
    inputSchema: z.object({ target: z.string() }),
    maxResultSizeChars: 100,
    description: () => "",
    prompt: () => "",
    call: async () => ({ data: "" }),
    ruleMatcher: {
      matches: ({ rule, input }) => {
        counter.calls++;
        return (input as Input).target.startsWith(rule.value.ruleContent ?? "");
      },
    },
  }) as Tool;
  return { tool, counter };
}

/** `count` content rules for tools other than the one under test. */
function othersRules(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `Other${i % 50}(path/${i})`);
}

describe("rule matching cost", () => {
  it.each([0, 1_000, 100_000])(
    "with %d deny rules for other tools, the tool's matcher is asked about its 3 rules only, and its candidates are those 3",
    async (others) => {
      const { tool, counter } = countingTool("Probe");
      const deny = [
        ...othersRules(others / 2),
        "Probe(a/)",
        "Probe(b/)",
        ...othersRules(others / 2),
        "Probe(c/)",
      ];
      const context = createToolUseContext({ tools: [tool], deny, allow: ["Probe(z/)"] });
      const permissionContext = context.getAppState().toolPermissionContext;
      const candidates = contentRulesNaming(permissionContext, "deny", ["Probe"]);
      expect(candidates.map((rule) => formatRuleValue(rule.value))).toEqual([
        "Probe(a/)",
        "Probe(b/)",
        "Probe(c/)",
      ]);
      // A target no deny rule covers: each of the tool's deny rules is asked once; the allow rule once.
      const decision = await decidePermission(tool, { target: "z/file" }, context);
      expect(decision.behavior).toBe("allow");
      expect(counter.calls).toBe(4);
      counter.calls = 0;
      // The first of its rules that matches wins, asked in the order the rules were written.
      const denied = await findContentRule(context, permissionContext, tool, { target: "b/file" }, "deny");
      expect(denied && formatRuleValue(denied.value)).toBe("Probe(b/)");
      expect(counter.calls).toBe(2);
    },
  );

  it("builds the index once per rule set: later calls, and contexts that only change the mode, reuse it", () => {
    const { tool } = countingTool("Probe");
    const context = createToolUseContext({ tools: [tool], deny: [...othersRules(10_000), "Probe(a/)"] });
    const first = context.getAppState().toolPermissionContext;
    const index = ruleIndex(first, "deny");
    expect(index.all).toHaveLength(10_001);
    expect(ruleIndex(first, "deny")).toBe(index);
    expect(contentRulesNaming(first, "deny", ["Probe"])).toBe(contentRulesNaming(first, "deny", ["Probe"]));
    const planMode = { ...first, mode: "plan" as const };
    expect(ruleIndex(planMode, "deny")).toBe(index);
  });
});

describe("which rules cover a tool (as a scan of every rule would say)", () => {
  const { tool: probe } = countingTool("Probe", { aliases: ["OldProbe"], families: ["Probes"] });
  const mcp = buildTool({
    name: "mcp__db__query",
    inputSchema: z.object({}),
    maxResultSizeChars: 100,
    description: () => "",
    prompt: () => "",
    call: async () => ({ data: "" }),
    mcpInfo: { serverName: "db", toolName: "query" },
  }) as Tool;

  it.each([
    ["its own name", ["Other", "Probe"], probe, "Probe"],
    ["an alias", ["OldProbe"], probe, "OldProbe"],
    ["a family", ["Probes"], probe, "Probes"],
    ["*", ["Other", "*"], probe, "*"],
    ["a prefix pattern, before an exact name", ["Pro*", "Probe"], probe, "Pro*"],
    ["an exact name, before a pattern", ["Probe", "*"], probe, "Probe"],
    ["an MCP server", ["mcp__other", "mcp__db"], mcp, "mcp__db"],
    ["an MCP tool by name", ["mcp__db__query"], mcp, "mcp__db__query"],
    ["a content rule is not a blanket rule", ["Probe(a/)"], probe, undefined],
    ["a prefix that does not fit", ["Prob*x", "Other*"], probe, undefined],
  ])("a blanket deny by %s", (_name, deny, tool, expected) => {
    const context = createToolUseContext({ tools: [tool], deny }).getAppState().toolPermissionContext;
    const rule = findBlanketRule(context, tool, "deny");
    expect(rule?.value.toolName).toBe(expected);
  });

  it.each([
    ["Probe", ["Other", "Probe"], "Probe"],
    ["mcp__db__query", ["mcp__db"], "mcp__db"],
    ["mcp__db__query", ["mcp__dbx"], undefined],
    ["mcp__db__query", ["mcp__db*"], "mcp__db*"],
    ["Unknown", ["*"], "*"],
    ["Unknown", ["Probe(a/)"], undefined],
  ])("a tool hidden by name: %s under %j", (name, deny, expected) => {
    const context = createToolUseContext({ tools: [], deny }).getAppState().toolPermissionContext;
    expect(findBlanketDenyForName(context, name)?.value.toolName).toBe(expected);
  });

  it("lists the rules naming some tools, blanket and content, in the order written", () => {
    const context = createToolUseContext({
      tools: [],
      deny: ["Read(a)", "Edit", "Bash(x)", "Write(b)", "Read", "Other(c)"],
    }).getAppState().toolPermissionContext;
    expect(
      rulesNaming(context, "deny", ["Read", "Write", "Edit"]).map((rule) => formatRuleValue(rule.value)),
    ).toEqual(["Read(a)", "Edit", "Write(b)", "Read"]);
  });
});
