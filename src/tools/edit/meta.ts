import type { ToolMeta } from "../../tool/toolMeta.ts";

export const editToolMeta: ToolMeta = {
  name: "Edit",
  permissionRuleNames: ["Edit"],
  pathAccess: "write",
  judgesAgentCalls: true,
};
