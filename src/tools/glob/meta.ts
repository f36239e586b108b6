import type { ToolMeta } from "../../tool/toolMeta.ts";

export const globToolMeta: ToolMeta = {
  name: "Glob",
  permissionRuleNames: ["Read"],
  pathAccess: "read",
  searchesFolder: true,
  judgesAgentCalls: true,
};
