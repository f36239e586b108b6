import type { ToolMeta } from "../../tool/toolMeta.ts";

export const taskGetToolMeta: ToolMeta = { name: "TaskGet" };
