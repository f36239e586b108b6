import type { ToolMeta } from "../../tool/toolMeta.ts";

export const toolSearchToolMeta: ToolMeta = { name: "ToolSearch", usesToolPool: true };
