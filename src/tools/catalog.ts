// The built-in tools looked up by their facts (the metas registered in index.ts), each module loaded only
// when asked for. A process that decides or runs one call (`keel check`, `keel tool`, `keel hook`) loads
// that tool and nothing else: every tool's module and zod schema cost start-up time a person waits on at
// every call. Lists of tools elsewhere (judged for other agents, path-rule families) are derived here.
import type { Tool } from "../tool/Tool.ts";
import { ruleNamesOf, ruleToolNames, type ToolMeta, type ToolRegistration } from "../tool/toolMeta.ts";
import { BUILTIN_TOOLS } from "./index.ts";

/** The registration a tool name or alias means (exact, as the pipeline looks tools up). */
export function catalogEntry(name: string): ToolRegistration | undefined {
  return BUILTIN_TOOLS.find(({ meta }) => meta.name === name || meta.aliases?.includes(name));
}

/** Every name a rule may use for a built-in tool: names, aliases and rule families. */
export function builtinRuleNames(): Set<string> {
  return ruleToolNames(BUILTIN_TOOLS.map(({ meta }) => meta));
}

/** The names of the built-in tools whose facts pass `test`, in registration order. */
export function builtinToolNames(test: (meta: ToolMeta) => boolean): string[] {
  return BUILTIN_TOOLS.filter(({ meta }) => test(meta)).map(({ meta }) => meta.name);
}

/** The rule names covering the built-in tools whose facts pass `test`, each once, in registration order. */
export function builtinRuleNamesWhere(test: (meta: ToolMeta) => boolean): string[] {
  return [
    ...new Set(BUILTIN_TOOLS.filter(({ meta }) => test(meta)).flatMap(({ meta }) => ruleNamesOf(meta))),
  ];
}

/**
 * The built-in tools a session of one call needs: the named tool alone, or every tool when the name is
 * not a built-in's (an MCP tool, a typo to list the alternatives for) or the tool looks up the others.
 */
export async function loadToolsFor(name: string): Promise<Tool[]> {
  const entry = catalogEntry(name);
  if (!entry || entry.meta.usesToolPool) return loadAllBuiltinTools();
  return [await entry.load()];
}

/** Every built-in tool, in registration order (the order builtinTools() gives). */
export async function loadAllBuiltinTools(): Promise<Tool[]> {
  return Promise.all(BUILTIN_TOOLS.map((registration) => registration.load()));
}
