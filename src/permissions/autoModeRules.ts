// Auto mode lets a classifier approve what would ask. An allow rule that lets any code run (`Bash`,
// `Bash(*)`, `Bash(python3:*)`, `Bash(sh -c:*)`, `Bash(npx:*)`...) would skip the classifier for exactly
// the calls it exists to judge, so such rules are set aside while the mode is auto and apply again when
// it is left. Which programs run code comes from the shell analyzer's own lists (shell/programs.ts).
import { isInterpreter, PACKAGE_RUNNERS, PRIVILEGE_COMMANDS } from "../shell/analyze/programs.ts";
import { isCommandWrapper, unwrapForAnalysis } from "../shell/analyze/wrappers.ts";
import type { ToolPermissionContext } from "../tool/context.ts";
import { formatRuleValue, parseRuleCached, RuleParseError } from "./rules.ts";
import type { PermissionRule, RuleSource, RuleValue } from "./types.ts";

const SHELL_TOOL = "Bash";

/** The fixed words a rule's specifier starts with, and whether anything may follow them. */
function fixedPart(content: string): { words: string[]; open: boolean; openName: boolean } {
  const prefix = content.endsWith(":*") ? content.slice(0, -2) : undefined;
  if (prefix !== undefined) return { words: splitWords(prefix), open: true, openName: false };
  const star = content.indexOf("*");
  if (star === -1) return { words: splitWords(content), open: false, openName: false };
  const before = content.slice(0, star);
  const words = splitWords(before);
  // `py*`: the wildcard is part of the program's own name.
  const openName = words.length <= 1 && !/\s$/.test(before);
  return { words, open: true, openName };
}

function splitWords(text: string): string[] {
  return text
    .trim()
    .split(/\s+/)
    .filter((word) => word !== "")
    .map((word) => word.replace(/^(['"])(.*)\1$/, "$2"));
}

const hasPositional = (words: readonly string[]) => words.some((word) => !word.startsWith("-"));

/** Why a Bash allow rule lets arbitrary code run (then it is set aside in auto mode), or undefined. */
export function arbitraryCodeReason(value: RuleValue): string | undefined {
  if (value.toolName !== SHELL_TOOL) return undefined;
  if (value.ruleContent === undefined) return "allows every command";
  const { words: fixed, open, openName } = fixedPart(value.ruleContent);
  if (!open) return undefined;
  // `VAR=value` words before the program change its environment, not what it is.
  const start = fixed.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  const argv = start === -1 ? [] : fixed.slice(start);
  if (argv.length === 0) return "allows every command";
  if (openName) return `matches any program whose name starts with ${argv[0]}`;
  const unwrapped = unwrapForAnalysis(argv);
  if (unwrapped.problem || unwrapped.offset >= argv.length)
    return `${argv[0]} runs whatever command follows it`;
  const name = argv[unwrapped.offset] as string;
  const rest = argv.slice(unwrapped.offset + 1);
  if (PRIVILEGE_COMMANDS.has(name) || name === "watch" || isCommandWrapper(name))
    return `${name} runs whatever command follows it`;
  if (isInterpreter(name) && !hasPositional(rest)) return `${name} runs any code it is given`;
  const runner = PACKAGE_RUNNERS[name];
  if (runner) {
    if (runner.length === 0 && !hasPositional(rest)) return `${name} runs any package it is given`;
    const positionals = rest.filter((word) => !word.startsWith("-"));
    if (positionals.length === 0) return `${name} can run any package or script`;
    if (runner.includes(positionals[0] as string) && positionals.length === 1)
      return `${name} ${positionals[0]} runs any package or script it is given`;
  }
  return undefined;
}

export interface SetAsideRule {
  rule: string;
  source: RuleSource;
  reason: string;
}

/** The allow rules auto mode sets aside in this policy, whatever its current mode. */
export function rulesSetAsideInAuto(context: ToolPermissionContext): SetAsideRule[] {
  const found: SetAsideRule[] = [];
  for (const [source, rules] of Object.entries(context.alwaysAllowRules) as Array<
    [RuleSource, readonly string[] | undefined]
  >) {
    for (const text of rules ?? []) {
      const value = parseQuietly(text);
      const reason = value ? arbitraryCodeReason(value) : undefined;
      if (value && reason) found.push({ rule: formatRuleValue(value), source, reason });
    }
  }
  return found;
}

function parseQuietly(text: string): RuleValue | undefined {
  const value = parseRuleCached(text);
  return value instanceof RuleParseError ? undefined : value;
}

/** True when auto mode sets this allow rule aside. */
export function setAsideInAuto(rule: PermissionRule): boolean {
  return rule.behavior === "allow" && arbitraryCodeReason(rule.value) !== undefined;
}

/** What the person is told when the mode changes into or out of auto (empty when nothing changes). */
export function autoModeRuleNotice(
  from: ToolPermissionContext["mode"],
  to: ToolPermissionContext["mode"],
  context: ToolPermissionContext,
): string | undefined {
  if ((from === "auto") === (to === "auto")) return undefined;
  const rules = rulesSetAsideInAuto(context);
  if (rules.length === 0) return undefined;
  const list = rules.map((entry) => `${entry.rule} (${entry.source}: ${entry.reason})`).join("; ");
  return to === "auto"
    ? `Auto mode sets aside allow rules that would let any code run without the classifier: ${list}. They apply again when you leave auto mode.`
    : `Left auto mode: these allow rules apply again: ${list}.`;
}
