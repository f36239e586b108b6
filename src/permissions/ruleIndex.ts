// The rules of one behaviour, parsed once and indexed by the tool name they name, so finding the rules
// that could cover a call costs what those rules cost, however many rules name other tools. Built once
// per rule set: a policy is frozen all the way down and replaced on change, so the index is kept beside
// the frozen rule set (a WeakMap) and shared by every context that holds it (a mode change keeps it).
import type { ToolPermissionContext } from "../tool/context.ts";
import { setAsideInAuto } from "./autoModeRules.ts";
import { parseRuleCached, RuleParseError } from "./rules.ts";
import { type PermissionRule, RULE_SOURCES, type RuleBehavior } from "./types.ts";

export interface RuleIndex {
  /** Every well-formed rule, in source order (policy first), as written in each source. */
  readonly all: readonly PermissionRule[];
  /** Positions in `all` of the blanket rules by the exact name they give (`Read`, `mcp__db__query`). */
  readonly blanketByName: ReadonlyMap<string, readonly number[]>;
  /** Positions of the blanket rules whose name is a pattern: `*`, `prefix*`, `mcp__server`. */
  readonly blanketPatterns: readonly number[];
  /** Positions of the content rules (`Bash(npm test:*)`) by the name they give. */
  readonly contentByName: ReadonlyMap<string, readonly number[]>;
  /** Rules naming any of a list of names, by the list (joined), computed once each. */
  readonly naming: Map<string, readonly PermissionRule[]>;
}

/** A blanket rule name that covers tools by pattern rather than by one exact name. */
export function isPatternName(name: string): boolean {
  return name === "*" || name.endsWith("*") || (name.startsWith("mcp__") && name.split("__").length === 2);
}

function rulesFor(context: ToolPermissionContext, behavior: RuleBehavior) {
  return behavior === "allow"
    ? context.alwaysAllowRules
    : behavior === "deny"
      ? context.alwaysDenyRules
      : context.alwaysAskRules;
}

function isFrozenRuleSet(bySource: object): boolean {
  return Object.isFrozen(bySource) && Object.values(bySource).every((texts) => Object.isFrozen(texts));
}

function push(map: Map<string, number[]>, key: string, position: number): void {
  const list = map.get(key);
  if (list) list.push(position);
  else map.set(key, [position]);
}

function buildIndex(
  bySource: ToolPermissionContext["alwaysAllowRules"],
  behavior: RuleBehavior,
  keep: (rule: PermissionRule) => boolean,
): RuleIndex {
  const all: PermissionRule[] = [];
  const blanketByName = new Map<string, number[]>();
  const blanketPatterns: number[] = [];
  const contentByName = new Map<string, number[]>();
  for (const source of RULE_SOURCES) {
    for (const text of bySource[source] ?? []) {
      const value = parseRuleCached(text);
      if (value instanceof RuleParseError) continue;
      const rule = Object.freeze({ behavior, source, value });
      if (!keep(rule)) continue;
      const position = all.length;
      all.push(rule);
      if (value.ruleContent !== undefined) push(contentByName, value.toolName, position);
      else if (isPatternName(value.toolName)) blanketPatterns.push(position);
      else push(blanketByName, value.toolName, position);
    }
  }
  return { all: Object.freeze(all), blanketByName, blanketPatterns, contentByName, naming: new Map() };
}

/** A behaviour's index, or the allow rules auto mode keeps (the set-aside ones left out). */
type IndexKind = RuleBehavior | "allowInAuto";

const indexes = new WeakMap<object, Partial<Record<IndexKind, RuleIndex>>>();

const keepAll = () => true;
const keepInAuto = (rule: PermissionRule) => !setAsideInAuto(rule);

/**
 * The index of one behaviour's rules: built once for a frozen rule set, afresh for one that can change.
 * In auto mode the allow index leaves out the rules auto mode sets aside, unless `includeSetAside`.
 */
export function ruleIndex(
  context: ToolPermissionContext,
  behavior: RuleBehavior,
  options: { includeSetAside?: boolean } = {},
): RuleIndex {
  const bySource = rulesFor(context, behavior);
  const inAuto = behavior === "allow" && context.mode === "auto" && !options.includeSetAside;
  const kind: IndexKind = inAuto ? "allowInAuto" : behavior;
  const known = indexes.get(bySource)?.[kind];
  if (known) return known;
  const index = buildIndex(bySource, behavior, inAuto ? keepInAuto : keepAll);
  if (isFrozenRuleSet(bySource)) indexes.set(bySource, { ...indexes.get(bySource), [kind]: index });
  return index;
}

/** Positions from several sorted lists, merged in order without repeats. */
export function mergePositions(lists: ReadonlyArray<readonly number[] | undefined>): number[] {
  const present = lists.filter((list): list is readonly number[] => list !== undefined && list.length > 0);
  if (present.length === 1) return [...present[0]!];
  return [...new Set(present.flat())].sort((a, b) => a - b);
}

function naming(
  context: ToolPermissionContext,
  behavior: RuleBehavior,
  names: readonly string[],
  withBlanket: boolean,
): readonly PermissionRule[] {
  const index = ruleIndex(context, behavior);
  const key = `${withBlanket ? "all" : "content"}\u0000${names.join("\u0000")}`;
  const known = index.naming.get(key);
  if (known) return known;
  const positions = mergePositions(
    names.flatMap((name) => [
      withBlanket ? index.blanketByName.get(name) : undefined,
      index.contentByName.get(name),
    ]),
  );
  const rules = Object.freeze(positions.map((position) => index.all[position]!));
  index.naming.set(key, rules);
  return rules;
}

/**
 * The rules (blanket or content) whose tool name is exactly one of `names`, in order; computed once per
 * list of names and rule set.
 */
export function rulesNaming(
  context: ToolPermissionContext,
  behavior: RuleBehavior,
  names: readonly string[],
): readonly PermissionRule[] {
  return naming(context, behavior, names, true);
}

/** The content rules whose tool name is exactly one of `names`, in order; computed once each. */
export function contentRulesNaming(
  context: ToolPermissionContext,
  behavior: RuleBehavior,
  names: readonly string[],
): readonly PermissionRule[] {
  return naming(context, behavior, names, false);
}
