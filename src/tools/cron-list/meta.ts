import type { ToolMeta } from "../../tool/toolMeta.ts";

export const cronListToolMeta: ToolMeta = { name: "CronList" };
