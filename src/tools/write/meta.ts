import type { ToolMeta } from "../../tool/toolMeta.ts";

export const writeToolMeta: ToolMeta = {
  name: "Write",
  permissionRuleNames: ["Edit", "Write"],
  pathAccess: "write",
  judgesAgentCalls: true,
};
