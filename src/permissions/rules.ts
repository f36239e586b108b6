// Permission rule strings: `Tool` or `Tool(specifier)`. Parentheses and backslashes inside a
// specifier are escaped with a backslash, so formatting then parsing gives the same rule back.
import type { PermissionRule, RuleBehavior, RuleSource, RuleValue } from "./types.ts";

export class RuleParseError extends Error {
  constructor(rule: string, problem: string) {
    super(`Invalid permission rule "${rule}": ${problem}`);
    this.name = "RuleParseError";
  }
}

const TOOL_NAME = /^(\*|[A-Za-z][A-Za-z0-9_-]*(\*)?)$/;

function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === "\\"; i--) backslashes++;
  return backslashes % 2 === 1;
}

export function escapeRuleContent(content: string): string {
  return content.replace(/[\\()]/g, (char) => `\\${char}`);
}

export function unescapeRuleContent(content: string): string {
  return content.replace(/\\([\\()])/g, "$1");
}

/** Parses one rule string. Throws RuleParseError with the reason when it is malformed. */
export function parseRuleValue(rule: string): RuleValue {
  const text = rule.trim();
  if (text === "") throw new RuleParseError(rule, "the rule is empty");
  const open = findUnescaped(text, "(");
  if (open === -1) {
    if (findUnescaped(text, ")") !== -1) throw new RuleParseError(rule, "a ')' without '('");
    if (!TOOL_NAME.test(text))
      throw new RuleParseError(rule, "a tool name has only letters, digits, _ and -");
    return { toolName: text };
  }
  const toolName = text.slice(0, open);
  if (!TOOL_NAME.test(toolName)) throw new RuleParseError(rule, `"${toolName}" is not a tool name`);
  if (!text.endsWith(")") || isEscaped(text, text.length - 1))
    throw new RuleParseError(rule, "the specifier must end with ')'");
  const inner = text.slice(open + 1, -1);
  for (let i = 0; i < inner.length; i++) {
    if ((inner[i] === "(" || inner[i] === ")") && !isEscaped(inner, i))
      throw new RuleParseError(rule, `unescaped '${inner[i]}' inside the specifier (write \\${inner[i]})`);
  }
  const content = unescapeRuleContent(inner);
  // `Tool()` and `Tool(*)` mean the whole tool.
  if (content === "" || content === "*") return { toolName };
  return { toolName, ruleContent: content };
}

function findUnescaped(text: string, char: string): number {
  for (let i = 0; i < text.length; i++) if (text[i] === char && !isEscaped(text, i)) return i;
  return -1;
}

export function formatRuleValue(value: RuleValue): string {
  return value.ruleContent === undefined
    ? value.toolName
    : `${value.toolName}(${escapeRuleContent(value.ruleContent)})`;
}

const parsedCache = new Map<string, RuleValue | RuleParseError>();

/** Parses with a cache; a malformed rule returns its error instead of throwing. */
export function parseRuleCached(rule: string): RuleValue | RuleParseError {
  let parsed = parsedCache.get(rule);
  if (parsed === undefined) {
    try {
      parsed = parseRuleValue(rule);
    } catch (error) {
      parsed = error instanceof RuleParseError ? error : new RuleParseError(rule, String(error));
    }
    if (parsedCache.size > 10_000) parsedCache.clear();
    parsedCache.set(rule, parsed);
  }
  return parsed;
}

export function makeRule(behavior: RuleBehavior, source: RuleSource, rule: string): PermissionRule {
  return { behavior, source, value: parseRuleValue(rule) };
}
