// What Keel knows of a tool without loading its module. Each built-in tool keeps these facts in its
// folder's meta.ts (plain data, no imports), spreads them into its definition, and registers them in
// tools/index.ts: a process deciding one call reads every tool's facts and loads one tool's module.
import type { Tool } from "./Tool.ts";

export interface ToolMeta {
  readonly name: string;
  readonly aliases?: readonly string[];
  /** Rule names whose rules apply to this tool (Edit rules cover Write, MultiEdit...). Default: [name]. */
  readonly permissionRuleNames?: readonly string[];
  /**
   * Its rules' specifiers are paths (gitignore patterns) that a call reads or writes: its rule names are
   * path-rule families (Read; Edit, Write...), and its `ruleMatcher` is the path matcher.
   */
  readonly pathAccess?: "read" | "write";
  /** It searches a folder and leaves out what Read deny rules cover (Grep, Glob, LS). */
  readonly searchesFolder?: boolean;
  /** Its call looks up other tools of the session (sub-agents, tool search, skills): load them all. */
  readonly usesToolPool?: boolean;
  /** Only the main conversation may call it (it changes the session's mode): never given to sub-agents. */
  readonly mainConversationOnly?: boolean;
  /**
   * Keel judges other agents' calls of the tool of this name (`keel hook`): the same name and input
   * as Claude Code's tool, so Keel's own tool decides them.
   */
  readonly judgesAgentCalls?: boolean;
}

/** A built-in tool: its facts, and its module loaded when a call needs it. */
export interface ToolRegistration {
  readonly meta: ToolMeta;
  load(): Promise<Tool>;
}

/** The rule names that cover a tool: its own name and its families (Edit rules cover Write...). */
export function ruleNamesOf(tool: ToolMeta): readonly string[] {
  return tool.permissionRuleNames ?? [tool.name];
}

/** Every name a rule may use for these tools: names, aliases and rule families. */
export function ruleToolNames(tools: readonly ToolMeta[]): Set<string> {
  const names = new Set<string>();
  for (const tool of tools) {
    names.add(tool.name);
    for (const alias of tool.aliases ?? []) names.add(alias);
    for (const family of ruleNamesOf(tool)) names.add(family);
  }
  return names;
}
