import type { ToolMeta } from "../../tool/toolMeta.ts";

export const skillToolMeta: ToolMeta = { name: "Skill", usesToolPool: true };
