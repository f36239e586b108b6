import type { ToolMeta } from "../../tool/toolMeta.ts";

export const notebookEditToolMeta: ToolMeta = {
  name: "NotebookEdit",
  permissionRuleNames: ["Edit", "NotebookEdit"],
  pathAccess: "write",
  judgesAgentCalls: true,
};
