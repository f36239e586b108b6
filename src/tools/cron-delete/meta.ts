import type { ToolMeta } from "../../tool/toolMeta.ts";

export const cronDeleteToolMeta: ToolMeta = { name: "CronDelete" };
