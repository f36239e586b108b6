import { describe, expect, it } from "vitest";
import { builtinTools } from "../builtinTools.ts";
import type { AgentType } from "./agentTypes.ts";
import { MAX_AGENT_DEPTH } from "./runtime.ts";
import { toolsForAgent } from "./toolsForAgent.ts";

const type = (tools: AgentType["tools"], disallowedTools: string[] = []): AgentType => ({
  name: "t",
  description: "",
  tools,
  disallowedTools,
  prompt: "",
  source: "built-in",
});

const names = (agentType: AgentType, depth = 1) =>
  toolsForAgent(builtinTools(), agentType, depth).map((tool) => tool.name);

describe("the tools a sub-agent gets", () => {
  it.each([
    // Entering and leaving plan mode is the main conversation's (their metas say mainConversationOnly).
    [
      "all tools, but not the plan-mode tools",
      type("*"),
      1,
      ["Read", "Bash", "Agent"],
      ["EnterPlanMode", "ExitPlanMode"],
    ],
    [
      "the plan-mode tools even when listed",
      type(["Read", "EnterPlanMode", "ExitPlanMode"]),
      1,
      ["Read"],
      ["EnterPlanMode", "ExitPlanMode"],
    ],
    ["only those listed, by name or alias", type(["Read", "Task"]), 1, ["Read", "Agent"], ["Bash", "Write"]],
    ["not those disallowed", type("*", ["Write", "Bash"]), 1, ["Read", "Edit"], ["Write", "Bash"]],
    ["no Agent once as deep as agents go", type("*"), MAX_AGENT_DEPTH, ["Read"], ["Agent"]],
  ])("%s", (_name, agentType, depth, has, hasNot) => {
    const got = names(agentType, depth);
    for (const name of has) expect(got, name).toContain(name);
    for (const name of hasNot) expect(got, name).not.toContain(name);
  });
});
