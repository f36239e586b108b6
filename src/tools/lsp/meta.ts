import type { ToolMeta } from "../../tool/toolMeta.ts";

export const lspToolMeta: ToolMeta = { name: "LSP", permissionRuleNames: ["Read"], pathAccess: "read" };
