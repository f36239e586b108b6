// The Bash content-rule matcher. Deny and ask rules match if ANY command the string can run matches
// (nested, wrapped, obfuscated); allow rules match only a fully understood command whose every part
// is covered by some allow rule or is read-only.
import { listRules, type RuleContentMatcher } from "../permissions/matchers.ts";
import type { PermissionRule } from "../permissions/types.ts";
import type { ToolPermissionContext } from "../tool/context.ts";
import { isReadOnlyPart } from "./analyze.ts";
import {
  type BashPattern,
  parseBashPattern,
  patternMatchesArgv,
  patternMatchesArgvLoosely,
  patternMatchesText,
  validateBashSpecifier,
} from "./bashRules.ts";
import { viewCommand } from "./commandView.ts";
import { deepScan } from "./deepCommands.ts";
import { understoodCommands } from "./frontEnd.ts";
import { initBashParser } from "./parse.ts";
import { commandForAllowRules } from "./wrappers.ts";

const patterns = new Map<string, BashPattern>();

function patternOf(content: string): BashPattern {
  let pattern = patterns.get(content);
  if (!pattern) {
    pattern = parseBashPattern(content);
    if (patterns.size > 1_000) patterns.clear();
    patterns.set(content, pattern);
  }
  return pattern;
}

/** Deny/ask: any visible command form, or the text itself, matches. */
export function denyRuleMatches(command: string, content: string): boolean {
  const pattern = patternOf(content);
  if (patternMatchesText(pattern, command)) return true;
  if (command.includes("\\\n") && patternMatchesText(pattern, command.replace(/\\\n/g, ""))) return true;
  try {
    return deepScan(command).forms.some(
      (form) => patternMatchesArgv(pattern, form) || patternMatchesArgvLoosely(pattern, form),
    );
  } catch {
    return true;
  }
}

/** Allow: the rule covers at least one part, and every part is covered by some allow rule or is read-only. */
export function allowRuleMatches(command: string, content: string, allContents: readonly string[]): boolean {
  const commands = understoodCommands(command);
  if (!commands) return false;
  const pattern = patternOf(content);
  const others = allContents.map(patternOf);
  let covered = false;
  for (const extracted of commands) {
    const target = commandForAllowRules(extracted.simple.argv, extracted.simple.assignments);
    if (patternMatchesArgv(pattern, target)) {
      covered = true;
      continue;
    }
    if (others.some((other) => patternMatchesArgv(other, target))) continue;
    if (!isReadOnlyPart(viewCommand(extracted))) return false;
  }
  return covered;
}

function allowContents(context: ToolPermissionContext): string[] {
  return listRules(context, "allow")
    .filter((rule) => rule.value.toolName === "Bash" && rule.value.ruleContent !== undefined)
    .map((rule) => rule.value.ruleContent as string);
}

export async function bashRuleMatches(
  command: unknown,
  rule: PermissionRule,
  context: ToolPermissionContext,
): Promise<boolean> {
  const content = rule.value.ruleContent;
  if (content === undefined) return true;
  const failClosed = rule.behavior !== "allow";
  if (typeof command !== "string") return failClosed;
  try {
    await initBashParser();
    if (rule.behavior === "allow") return allowRuleMatches(command, content, allowContents(context));
    return denyRuleMatches(command, content);
  } catch {
    return failClosed;
  }
}

export const bashRuleMatcher: RuleContentMatcher = {
  matches: ({ input, rule, permissionContext }) =>
    bashRuleMatches((input as { command?: unknown } | null)?.command, rule, permissionContext),
  validate: validateBashSpecifier,
};
