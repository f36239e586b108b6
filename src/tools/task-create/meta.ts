import type { ToolMeta } from "../../tool/toolMeta.ts";

export const taskCreateToolMeta: ToolMeta = { name: "TaskCreate" };
