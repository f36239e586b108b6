import type { ToolMeta } from "../../tool/toolMeta.ts";

export const listAgentsToolMeta: ToolMeta = { name: "ListAgents" };
