// Which hooks run for a query: the `matcher` of the hook group (a tool name, a `|` list, or a regex)
// and the handler's optional `if` (a permission rule the call must match).
import { ruleNameMatchesTool } from "../permissions/matchers.ts";
import { parseRuleCached, RuleParseError } from "../permissions/rules.ts";
import type { ToolUseContext } from "../tool/context.ts";
import type { Tool } from "../tool/Tool.ts";

const NAME_LIST = /^[A-Za-z0-9_|]+$/;
const regexCache = new Map<string, RegExp | null>();

function compiled(pattern: string): RegExp | null {
  let regex = regexCache.get(pattern);
  if (regex === undefined) {
    try {
      regex = new RegExp(pattern);
    } catch {
      regex = null;
    }
    regexCache.set(pattern, regex);
  }
  return regex;
}

/**
 * Empty or `*`: everything. Only letters, digits, `_` and `|`: exact names (`Edit|Write`). Anything
 * else: an unanchored regular expression (`mcp__github__.*`, `Notebook.*`).
 */
export function matcherMatches(matcher: string | undefined, query: string | undefined): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (query === undefined) return false;
  if (NAME_LIST.test(matcher)) return matcher.split("|").includes(query);
  return compiled(matcher)?.test(query) ?? false;
}

/**
 * Does the call match the handler's `if` rule? Matching is as broad as deny-rule matching, and a rule
 * that cannot be understood runs the hook: a guard hook that is skipped by mistake is the worse error.
 */
export async function ifRuleMatches(
  rule: string | undefined,
  call: { tool: Tool; input: unknown; context: ToolUseContext },
): Promise<boolean> {
  if (rule === undefined) return true;
  const value = parseRuleCached(rule);
  if (value instanceof RuleParseError) return true;
  if (!ruleNameMatchesTool(value.toolName, call.tool)) return false;
  if (value.ruleContent === undefined) return true;
  const matcher = call.tool.ruleMatcher;
  if (!matcher) return true;
  try {
    return await matcher.matches({
      tool: call.tool,
      input: call.input,
      context: call.context,
      permissionContext: call.context.getAppState().toolPermissionContext,
      rule: { behavior: "deny", source: "session", value },
    });
  } catch {
    return true;
  }
}
