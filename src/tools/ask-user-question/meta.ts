import type { ToolMeta } from "../../tool/toolMeta.ts";

export const askUserQuestionToolMeta: ToolMeta = { name: "AskUserQuestion" };
