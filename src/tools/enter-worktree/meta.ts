import type { ToolMeta } from "../../tool/toolMeta.ts";

export const enterWorktreeToolMeta: ToolMeta = { name: "EnterWorktree" };
