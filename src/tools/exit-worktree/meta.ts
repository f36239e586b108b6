import type { ToolMeta } from "../../tool/toolMeta.ts";

export const exitWorktreeToolMeta: ToolMeta = { name: "ExitWorktree" };
