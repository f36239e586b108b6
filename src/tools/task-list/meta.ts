import type { ToolMeta } from "../../tool/toolMeta.ts";

export const taskListToolMeta: ToolMeta = { name: "TaskList" };
