import type { ToolMeta } from "../../tool/toolMeta.ts";

export const todoWriteToolMeta: ToolMeta = { name: "TodoWrite" };
