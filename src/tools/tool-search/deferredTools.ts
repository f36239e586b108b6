// Deferred tools: offered by name only until ToolSearch loads them. The pool may carry them
// (`shouldDefer`), or a host may keep them aside in `context.options.deferredTools`. What ToolSearch
// loaded is recorded in `context.options.loadedDeferredTools` and in its results in the transcript.
import type { ToolUseContext } from "../../tool/context.ts";
import type { Message } from "../../tool/messages.ts";
import { isDeferredTool } from "../../tool/registry.ts";
import type { Tool, Tools } from "../../tool/Tool.ts";
import { toolSearchToolMeta } from "./meta.ts";

/** What ToolSearch reads from and writes to `context.options`, beyond ToolUseOptions. */
export interface DeferredToolOptions {
  /** Tools kept out of the pool until loaded. */
  deferredTools?: Tools;
  /** Names ToolSearch has loaded in this session, in load order. */
  loadedDeferredTools?: readonly string[];
}

/** The first line of every ToolSearch result that loaded something; the loop can read it back. */
export const LOADED_TOOLS_PREFIX = "Loaded tools: ";

/** Every deferred tool the session knows: deferred tools in the pool, then those kept aside. */
export function listDeferredTools(context: ToolUseContext): Tool[] {
  const aside = (context.options as DeferredToolOptions).deferredTools ?? [];
  const seen = new Set<string>();
  const tools: Tool[] = [];
  for (const tool of [...context.options.tools.filter(isDeferredTool), ...aside]) {
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    tools.push(tool);
  }
  return tools;
}

/** The names ToolSearch loaded, as recorded on the context by its contextModifier. */
export function getLoadedDeferredToolNames(context: ToolUseContext): Set<string> {
  return new Set((context.options as DeferredToolOptions).loadedDeferredTools ?? []);
}

/** A context whose pool holds these tools and whose record lists them as loaded. */
export function withLoadedTools(context: ToolUseContext, tools: readonly Tool[]): ToolUseContext {
  const options = context.options as ToolUseContext["options"] & DeferredToolOptions;
  const inPool = new Set(options.tools.map((tool) => tool.name));
  const loaded = [...(options.loadedDeferredTools ?? [])];
  for (const tool of tools) if (!loaded.includes(tool.name)) loaded.push(tool.name);
  const next: ToolUseContext["options"] & DeferredToolOptions = {
    ...options,
    tools: [...options.tools, ...tools.filter((tool) => !inPool.has(tool.name))],
    loadedDeferredTools: loaded,
  };
  return { ...context, options: next };
}

/**
 * The names loaded by ToolSearch calls in a transcript: for a resumed session, or a loop that keeps
 * messages rather than contexts. Reads the first line of each successful ToolSearch result.
 */
export function loadedToolNamesFromMessages(messages: readonly Message[]): Set<string> {
  const searchIds = new Set<string>();
  const names = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "tool_use" && block.name === toolSearchToolMeta.name) searchIds.add(block.id);
      if (block.type !== "tool_result" || !searchIds.has(block.tool_use_id) || block.is_error) continue;
      const text =
        typeof block.content === "string"
          ? block.content
          : block.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
      const first = text.split("\n", 1)[0] ?? "";
      if (!first.startsWith(LOADED_TOOLS_PREFIX)) continue;
      for (const name of first.slice(LOADED_TOOLS_PREFIX.length).split(","))
        if (name.trim()) names.add(name.trim());
    }
  }
  return names;
}
