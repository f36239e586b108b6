import type { ToolMeta } from "../../tool/toolMeta.ts";

export const monitorToolMeta: ToolMeta = { name: "Monitor" };
