// A Keel tool as MCP clients see it in tools/list: its prompt as description, its JSON Schemas, and
// annotations from its own flags. A flag the tool leaves at Keel's default, or that depends on the
// input, is reported at MCP's fail-closed value (may change things, may destroy, not idempotent).
import type { Tool as McpToolDef, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { toolInputJSONSchema, toolOutputJSONSchema } from "../tool/schema.ts";
import { safeFlag, TOOL_DEFAULTS, type Tool } from "../tool/Tool.ts";

type StaticFlag = { known: true; value: boolean } | { known: false };

/** The flag's value when it cannot depend on the input (declared as a boolean). */
function staticFlag(flag: ((input: never) => boolean) | undefined, fallback: unknown): StaticFlag {
  if (flag === undefined || flag === fallback || flag.length > 0) return { known: false };
  return { known: true, value: safeFlag(() => (flag as () => boolean)(), false) };
}

export function toolAnnotations(tool: Tool): ToolAnnotations {
  const readOnly = staticFlag(tool.isReadOnly, TOOL_DEFAULTS.isReadOnly);
  const destructive = staticFlag(tool.isDestructive, TOOL_DEFAULTS.isDestructive);
  const openWorld = tool.isOpenWorld
    ? staticFlag(tool.isOpenWorld, undefined)
    : { known: true as const, value: false };
  // A tool that keeps session state (a todo list) is read-only to Keel's permissions, not to a client.
  const readOnlyHint = readOnly.known && readOnly.value && tool.changesSessionState !== true;
  return {
    title: safeTitle(tool),
    readOnlyHint,
    destructiveHint: readOnlyHint ? false : destructive.known ? destructive.value : true,
    idempotentHint: readOnlyHint,
    openWorldHint: openWorld.known ? openWorld.value : true,
  };
}

function safeTitle(tool: Tool): string {
  if (tool.title) return tool.title;
  try {
    return tool.userFacingName(undefined) || tool.name;
  } catch {
    return tool.name;
  }
}

/** The output schema when it can be one in MCP (an object at the root); otherwise none. */
export function mcpOutputSchema(tool: Tool): McpToolDef["outputSchema"] | undefined {
  let schema: Record<string, unknown> | undefined;
  try {
    schema = toolOutputJSONSchema(tool);
  } catch {
    return undefined;
  }
  if (schema?.type !== "object") return undefined;
  return schema as McpToolDef["outputSchema"];
}

export async function toMcpToolDefinition(
  tool: Tool,
  tools: readonly Tool[],
  permissionMode: string,
): Promise<McpToolDef> {
  const outputSchema = mcpOutputSchema(tool);
  const inputSchema = toolInputJSONSchema(tool);
  const annotations = toolAnnotations(tool);
  return {
    name: tool.name,
    // Clients since 2025-06-18 show `title` first; older ones read the annotation's.
    title: annotations.title!,
    description: await tool.prompt({ tools, permissionMode, conversationless: true }),
    inputSchema: (inputSchema.type === "object"
      ? inputSchema
      : { type: "object", ...inputSchema }) as McpToolDef["inputSchema"],
    ...(outputSchema ? { outputSchema } : {}),
    annotations,
  };
}
