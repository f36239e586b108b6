import type { ToolMeta } from "../../tool/toolMeta.ts";

export const agentToolMeta: ToolMeta = {
  name: "Agent",
  aliases: ["Task"],
  permissionRuleNames: ["Agent", "Task"],
  usesToolPool: true,
};
