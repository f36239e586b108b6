import type { ToolMeta } from "../../tool/toolMeta.ts";

export const multiEditToolMeta: ToolMeta = {
  name: "MultiEdit",
  permissionRuleNames: ["Edit", "MultiEdit"],
  pathAccess: "write",
  judgesAgentCalls: true,
};
