// Which of the parent's tools a sub-agent gets: those its type lists (all for "*"), minus the ones it
// disallows, minus the ones that belong to the main conversation, and without the Agent tool once the
// agent is as deep as sub-agents may go.
import { toolMatchesName } from "../../tool/registry.ts";
import type { Tool } from "../../tool/Tool.ts";
import type { AgentType } from "./agentTypes.ts";
import { agentToolMeta } from "./meta.ts";
import { MAX_AGENT_DEPTH } from "./runtime.ts";

export function toolsForAgent(parentTools: readonly Tool[], type: AgentType, childDepth: number): Tool[] {
  const listed = (tool: Tool, names: readonly string[]) => names.some((name) => toolMatchesName(tool, name));
  return parentTools.filter((tool) => {
    if (type.tools !== "*" && !listed(tool, type.tools)) return false;
    if (listed(tool, type.disallowedTools) || tool.mainConversationOnly) return false;
    if (tool.name === agentToolMeta.name && childDepth >= MAX_AGENT_DEPTH) return false;
    return true;
  });
}
