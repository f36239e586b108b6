import type { ToolMeta } from "../../tool/toolMeta.ts";

export const webSearchToolMeta: ToolMeta = { name: "WebSearch", judgesAgentCalls: true };
