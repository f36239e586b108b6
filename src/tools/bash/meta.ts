import type { ToolMeta } from "../../tool/toolMeta.ts";

export const bashToolMeta: ToolMeta = { name: "Bash", judgesAgentCalls: true };
