import type { ToolMeta } from "../../tool/toolMeta.ts";

export const lsToolMeta: ToolMeta = {
  name: "LS",
  permissionRuleNames: ["Read"],
  pathAccess: "read",
  searchesFolder: true,
  judgesAgentCalls: true,
};
