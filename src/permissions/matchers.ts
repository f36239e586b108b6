// Which rules apply to which tool. Blanket rules match by name (the tool's own, its aliases and the rule
// families it belongs to); content rules ask the tool's own matcher (paths for Read/Edit, commands for
// Bash, hosts for WebFetch). The engine is the one caller: tools ask it, never these directly. Only the
// rules that name the tool are looked at (ruleIndex.ts), whatever the number of rules for other tools.
import type { ToolPermissionContext, ToolUseContext } from "../tool/context.ts";
import { didYouMean } from "../tool/didYouMean.ts";
import type { Tool, Tools } from "../tool/Tool.ts";
import { ruleNamesOf, ruleToolNames } from "../tool/toolMeta.ts";
import { contentRulesNaming, mergePositions, ruleIndex } from "./ruleIndex.ts";
import { parseRuleCached, RuleParseError } from "./rules.ts";
import { type PermissionRule, RULE_SOURCES, type RuleBehavior, type RuleSource } from "./types.ts";

export type { RuleContentMatcher, RuleMatchArgs } from "../tool/Tool.ts";
export { ruleNamesOf } from "../tool/toolMeta.ts";

/** Does a blanket rule's tool name cover this tool? `*`, name, alias or family, `mcp__server`, `prefix*`. */
export function ruleNameMatchesTool(ruleToolName: string, tool: Tool): boolean {
  if (ruleToolName === "*") return true;
  if (ruleToolName === tool.name || tool.aliases?.includes(ruleToolName)) return true;
  if (ruleNamesOf(tool).includes(ruleToolName)) return true;
  if (ruleToolName.endsWith("*")) return tool.name.startsWith(ruleToolName.slice(0, -1));
  if (tool.mcpInfo && ruleToolName.startsWith("mcp__")) {
    const parts = ruleToolName.split("__");
    return parts.length === 2 && parts[1] === tool.mcpInfo.serverName;
  }
  return false;
}

/**
 * Every well-formed rule of one behaviour, in source order (policy first). In auto mode, allow rules that
 * would let any code run are left out (set aside, see autoModeRules.ts); `includeSetAside` lists them too.
 */
export function listRules(
  context: ToolPermissionContext,
  behavior: RuleBehavior,
  options: { includeSetAside?: boolean } = {},
): readonly PermissionRule[] {
  return ruleIndex(context, behavior, options).all;
}

function rulesFor(context: ToolPermissionContext, behavior: RuleBehavior) {
  return behavior === "allow"
    ? context.alwaysAllowRules
    : behavior === "deny"
      ? context.alwaysDenyRules
      : context.alwaysAskRules;
}

/** Rules that cannot be parsed, with their source, so the user can be told. */
export function listMalformedRules(
  context: ToolPermissionContext,
): Array<{ source: RuleSource; behavior: RuleBehavior; error: string }> {
  const problems: Array<{ source: RuleSource; behavior: RuleBehavior; error: string }> = [];
  for (const behavior of ["allow", "deny", "ask"] as const) {
    const bySource = rulesFor(context, behavior);
    for (const source of RULE_SOURCES) {
      for (const text of bySource[source] ?? []) {
        const value = parseRuleCached(text);
        if (value instanceof RuleParseError) problems.push({ source, behavior, error: value.message });
      }
    }
  }
  return problems;
}

/** The first blanket rule covering the tool: only the rules naming it, its aliases or families, and patterns. */
export function findBlanketRule(
  context: ToolPermissionContext,
  tool: Tool,
  behavior: RuleBehavior,
): PermissionRule | undefined {
  const index = ruleIndex(context, behavior);
  const names = [tool.name, ...(tool.aliases ?? []), ...ruleNamesOf(tool)];
  const byName = mergePositions(names.map((name) => index.blanketByName.get(name)));
  const pattern = index.blanketPatterns.find((position) =>
    ruleNameMatchesTool(index.all[position]!.value.toolName, tool),
  );
  const first = pattern === undefined ? byName[0] : Math.min(pattern, byName[0] ?? pattern);
  return first === undefined ? undefined : index.all[first];
}

/**
 * The first content rule of this behaviour covering the call. A tool without a matcher cannot have its
 * rules understood: deny and ask rules then apply (fail closed), allow rules do not.
 */
export async function findContentRule(
  context: ToolUseContext,
  permissionContext: ToolPermissionContext,
  tool: Tool,
  input: unknown,
  behavior: RuleBehavior,
): Promise<PermissionRule | undefined> {
  for (const rule of contentRulesNaming(permissionContext, behavior, ruleNamesOf(tool))) {
    const matcher = tool.ruleMatcher;
    if (!matcher) {
      if (behavior !== "allow") return rule;
      continue;
    }
    if (await matcher.matches({ tool, input, context, permissionContext, rule })) return rule;
  }
  return undefined;
}

/** The tool whose rules a rule name writes (by name, alias or family), among `tools`. */
export function toolForRuleName(tools: Tools, ruleToolName: string): Tool | undefined {
  return (
    tools.find((tool) => tool.name === ruleToolName || tool.aliases?.includes(ruleToolName)) ??
    tools.find((tool) => ruleNamesOf(tool).includes(ruleToolName))
  );
}

/** Why a rule's specifier is malformed for the tool it names, or undefined (also for unknown tools). */
export function ruleContentProblem(tools: Tools, ruleToolName: string, content: string): string | undefined {
  return toolForRuleName(tools, ruleToolName)?.ruleMatcher?.validate?.(content);
}

/**
 * Why a rule's tool name matches none of `tools` (with the likely intended name), or undefined. MCP
 * names (`mcp__...`) and wildcards are never unknown: their servers connect after settings are read.
 * `known` is every rule name of the tools (a session holding only some of them passes all the names).
 */
export function ruleToolNameProblem(
  tools: Tools,
  ruleToolName: string,
  known: ReadonlySet<string> = ruleToolNames(tools),
): string | undefined {
  if (ruleToolName === "*" || ruleToolName.endsWith("*") || ruleToolName.startsWith("mcp__"))
    return undefined;
  if (known.has(ruleToolName)) return undefined;
  const names = known;
  return `no tool is named "${ruleToolName}", so the rule matches nothing${didYouMean(ruleToolName, names)}`;
}

/**
 * The blanket deny rule that hid a tool the model called by name (it is not in the pool, so only its
 * name is known): `*`, the name itself, a `prefix*`, or `mcp__server` for that server's tools.
 */
export function findBlanketDenyForName(
  context: ToolPermissionContext,
  toolName: string,
): PermissionRule | undefined {
  const index = ruleIndex(context, "deny");
  const exact = index.blanketByName.get(toolName)?.[0];
  const pattern = index.blanketPatterns.find((position) => {
    const name = index.all[position]!.value.toolName;
    if (name === "*" || name === toolName) return true;
    if (name.endsWith("*")) return toolName.startsWith(name.slice(0, -1));
    return toolName.startsWith(`${name}__`);
  });
  const first = pattern === undefined ? exact : Math.min(pattern, exact ?? pattern);
  return first === undefined ? undefined : index.all[first];
}
