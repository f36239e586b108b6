import type { ToolMeta } from "../../tool/toolMeta.ts";

export const webFetchToolMeta: ToolMeta = { name: "WebFetch", judgesAgentCalls: true };
