// The tools a model is offered: the session pool minus deferred tools not loaded yet. Every tool of the
// pool stays callable through the pipeline (ToolSearch finds deferred ones in context.options.tools).
import type { ResultEvent } from "../pipeline/runToolUse.ts";
import { partitionDeferredTools } from "../tool/registry.ts";
import { toolInputJSONSchema } from "../tool/schema.ts";
import type { Tool } from "../tool/Tool.ts";
import type { ToolSpec } from "./provider.ts";

export class ToolPool {
  #all: Tool[];
  readonly #loaded = new Set<string>();
  readonly #specs = new Map<string, ToolSpec>();

  constructor(tools: readonly Tool[], loaded: Iterable<string> = []) {
    this.#all = [...tools];
    for (const name of loaded) this.#loaded.add(name);
  }

  get all(): readonly Tool[] {
    return this.#all;
  }

  /** Takes in tools a contextModifier put into the pool (ToolSearch loading tools kept aside). */
  adopt(tools: readonly Tool[]): void {
    for (const tool of tools) if (!this.#all.some((known) => known.name === tool.name)) this.#all.push(tool);
  }

  get loadedNames(): string[] {
    return [...this.#loaded];
  }

  /** Marks deferred tools as loaded; returns the names that were not loaded before. */
  load(names: Iterable<string>): string[] {
    const added: string[] = [];
    for (const name of names) {
      if (this.#loaded.has(name) || !this.all.some((tool) => tool.name === name)) continue;
      this.#loaded.add(name);
      added.push(name);
    }
    return added;
  }

  offered(): Tool[] {
    return partitionDeferredTools(this.all, this.#loaded).loaded;
  }

  deferred(): Tool[] {
    return partitionDeferredTools(this.all, this.#loaded).deferred;
  }

  /** Definitions for the request, each tool's prompt() as its description (computed once per tool). */
  async specs(): Promise<ToolSpec[]> {
    const offered = this.offered();
    const specs: ToolSpec[] = [];
    for (const tool of offered) {
      let spec = this.#specs.get(tool.name);
      if (!spec) {
        spec = {
          name: tool.name,
          description: await tool.prompt({ tools: this.all }),
          inputSchema: toolInputJSONSchema(tool),
          ...(tool.strict ? { strict: true } : {}),
        };
        this.#specs.set(tool.name, spec);
      }
      specs.push(spec);
    }
    return specs;
  }
}

/**
 * Tools that load deferred tools say so either on the context (ToolSearch's contextModifier records
 * `options.loadedDeferredTools`, read with getLoadedDeferredToolNames) or in their output / structured
 * content as `loadedTools: string[]`. This reads the second form.
 */
export function loadedToolNames(result: ResultEvent): string[] {
  if (result.isError) return [];
  for (const source of [result.structuredContent, result.output]) {
    if (source === null || typeof source !== "object") continue;
    const names = (source as { loadedTools?: unknown }).loadedTools;
    if (Array.isArray(names)) return names.filter((name): name is string => typeof name === "string");
  }
  return [];
}
