import type { ToolMeta } from "../../tool/toolMeta.ts";

export const taskOutputToolMeta: ToolMeta = { name: "TaskOutput" };
