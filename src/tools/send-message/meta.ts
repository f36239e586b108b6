import type { ToolMeta } from "../../tool/toolMeta.ts";

export const sendMessageToolMeta: ToolMeta = { name: "SendMessage" };
