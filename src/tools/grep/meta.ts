import type { ToolMeta } from "../../tool/toolMeta.ts";

export const grepToolMeta: ToolMeta = {
  name: "Grep",
  permissionRuleNames: ["Read"],
  pathAccess: "read",
  searchesFolder: true,
  judgesAgentCalls: true,
};
