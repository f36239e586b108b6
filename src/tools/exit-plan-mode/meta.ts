import type { ToolMeta } from "../../tool/toolMeta.ts";

export const exitPlanModeToolMeta: ToolMeta = { name: "ExitPlanMode", mainConversationOnly: true };
