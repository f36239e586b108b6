import type { ToolMeta } from "../../tool/toolMeta.ts";

export const taskStopToolMeta: ToolMeta = { name: "TaskStop" };
