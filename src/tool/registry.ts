// Finding tools and assembling the pool a model sees.
import { findBlanketRule } from "../permissions/matchers.ts";
import type { ToolPermissionContext } from "./context.ts";
import type { Tool, Tools } from "./Tool.ts";

export function toolMatchesName(tool: Pick<Tool, "name" | "aliases">, name: string): boolean {
  return tool.name === name || (tool.aliases?.includes(name) ?? false);
}

/** By name first, then by alias, so a tool's own name always wins over another tool's alias. */
export function findToolByName(tools: Tools, name: string): Tool | undefined {
  return tools.find((tool) => tool.name === name) ?? tools.find((tool) => tool.aliases?.includes(name));
}

/** A blanket deny rule (`Tool`, `mcp__server`, `*`) removes a tool from what the model sees. */
export function filterToolsByDenyRules(tools: Tools, permissionContext: ToolPermissionContext): Tool[] {
  return tools.filter((tool) => !findBlanketRule(permissionContext, tool, "deny"));
}

/**
 * The tools of a session: enabled, not blanket-denied, one per name (built-ins win over MCP tools of
 * the same name), built-ins first then MCP tools, each group sorted by name so the prompt prefix is stable.
 */
export function assembleToolPool(
  builtins: Tools,
  mcpTools: Tools,
  permissionContext: ToolPermissionContext,
): Tool[] {
  const seen = new Set<string>();
  const pool: Tool[] = [];
  const byName = (a: Tool, b: Tool) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const group of [[...builtins].sort(byName), [...mcpTools].sort(byName)]) {
    for (const tool of filterToolsByDenyRules(group, permissionContext)) {
      if (seen.has(tool.name) || !isEnabledSafely(tool)) continue;
      seen.add(tool.name);
      pool.push(tool);
    }
  }
  return pool;
}

function isEnabledSafely(tool: Tool): boolean {
  try {
    return tool.isEnabled();
  } catch {
    return false;
  }
}

export function isDeferredTool(tool: Tool): boolean {
  return tool.shouldDefer === true && tool.alwaysLoad !== true;
}

/** Splits a pool into tools offered up front and deferred tools found through ToolSearch. */
export function partitionDeferredTools(
  tools: Tools,
  loadedNames: ReadonlySet<string> = new Set(),
): { loaded: Tool[]; deferred: Tool[] } {
  const loaded: Tool[] = [];
  const deferred: Tool[] = [];
  for (const tool of tools)
    (isDeferredTool(tool) && !loadedNames.has(tool.name) ? deferred : loaded).push(tool);
  return { loaded, deferred };
}

/** Progress events of a call as the pipeline yields them. Hook progress is separate from tool progress. */
export interface ProgressMessage<P = unknown> {
  type: "progress";
  toolUseId: string;
  source: "tool" | "hook";
  data: P;
}

/** Only the tool's own progress, without hook progress, for rendering a tool call. */
export function filterToolProgressMessages<P>(messages: readonly ProgressMessage<P>[]): ProgressMessage<P>[] {
  return messages.filter((message) => message.source === "tool");
}
