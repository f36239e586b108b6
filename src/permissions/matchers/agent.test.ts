import { describe, expect, it } from "vitest";
import * as z from "zod";
import { createToolUseContext } from "../../tool/createContext.ts";
import { buildTool } from "../../tool/Tool.ts";
import { decidePermission } from "../engine.ts";
import { agentRuleMatcher } from "./agent.ts";

const agent = buildTool<Record<string, unknown>>({
  name: "Agent",
  aliases: ["Task"],
  permissionRuleNames: ["Agent", "Task"],
  ruleMatcher: agentRuleMatcher,
  inputSchema: z.looseObject({}),
  maxResultSizeChars: 100_000,
  call: async () => ({ data: "" }),
  description: () => "agent",
  prompt: () => "agent",
});

async function decide(rule: string, behavior: "allow" | "deny", input: Record<string, unknown>) {
  const context = createToolUseContext({ tools: [agent], [behavior]: [rule] });
  return (await decidePermission(agent, input, context)).behavior;
}

const MUST_MATCH: Array<[string, Record<string, unknown>]> = [
  ["Agent(Explore)", { subagent_type: "Explore", prompt: "x" }],
  ["Agent(code-reviewer)", { subagent_type: " code-reviewer " }],
  ["Agent(general-purpose)", { prompt: "no type given" }],
  ["Task(Explore)", { subagent_type: "Explore" }],
  ["Agent(plugin:reviewer)", { subagent_type: "plugin:reviewer" }],
];

const MUST_NOT_MATCH: Array<[string, Record<string, unknown>]> = [
  ["Agent(Explore)", { subagent_type: "explore" }],
  ["Agent(Explore)", { subagent_type: "Explorer" }],
  ["Agent(Explore)", { subagent_type: "Plan" }],
  ["Agent(Explore)", { prompt: "no type given" }],
  ["Agent(code)", { subagent_type: "code-reviewer" }],
];

describe("Agent(type)", () => {
  it.each(MUST_MATCH)("%s covers %j", async (rule, input) => {
    expect(await decide(rule, "allow", input)).toBe("allow");
    expect(await decide(rule, "deny", input)).toBe("deny");
  });

  it.each(MUST_NOT_MATCH)("%s does not cover %j", async (rule, input) => {
    expect(await decide(rule, "allow", input)).toBe("ask");
    expect(await decide(rule, "deny", input)).toBe("ask");
  });

  it("fails closed on a type that is not a string: deny applies, allow does not", async () => {
    expect(await decide("Agent(Explore)", "allow", { subagent_type: ["Explore"] })).toBe("ask");
    expect(await decide("Agent(Explore)", "deny", { subagent_type: ["Explore"] })).toBe("deny");
  });

  it("a blanket Agent deny covers every type", async () => {
    expect(await decide("Agent", "deny", { subagent_type: "Explore" })).toBe("deny");
  });
});
