import type { ToolMeta } from "../../tool/toolMeta.ts";

export const enterPlanModeToolMeta: ToolMeta = { name: "EnterPlanMode", mainConversationOnly: true };
