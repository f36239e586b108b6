import type { ToolMeta } from "../../tool/toolMeta.ts";

export const readToolMeta: ToolMeta = {
  name: "Read",
  permissionRuleNames: ["Read"],
  pathAccess: "read",
  judgesAgentCalls: true,
};
