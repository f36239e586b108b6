import type { ToolMeta } from "../../tool/toolMeta.ts";

export const cronCreateToolMeta: ToolMeta = { name: "CronCreate" };
