import type { ToolMeta } from "../../tool/toolMeta.ts";

export const taskUpdateToolMeta: ToolMeta = { name: "TaskUpdate" };
