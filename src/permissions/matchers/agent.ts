// `Agent(type)`: the sub-agent type of the call (`subagent_type`) equals the rule's type. `Task(type)`
// is the older name of the same rule and reads the same way.
import type { RuleContentMatcher, RuleMatchArgs } from "../matchers.ts";

/** The type used when a call names none. */
export const DEFAULT_SUBAGENT_TYPE = "general-purpose";

const TYPE_NAME = /^[A-Za-z0-9_.:-]+$/;

function subagentTypeOf(input: unknown): string | undefined {
  if (input === null || typeof input !== "object") return undefined;
  const value = (input as { subagent_type?: unknown }).subagent_type;
  if (value === undefined) return DEFAULT_SUBAGENT_TYPE;
  return typeof value === "string" ? value.trim() : undefined;
}

function matchAgentRule({ input, rule }: RuleMatchArgs): boolean {
  const wanted = (rule.value.ruleContent ?? "").trim();
  const actual = subagentTypeOf(input);
  if (actual === undefined || !TYPE_NAME.test(wanted)) return rule.behavior !== "allow";
  return actual === wanted;
}

function validateAgentRule(content: string): string | undefined {
  return TYPE_NAME.test(content.trim())
    ? undefined
    : `Agent rules name one sub-agent type (letters, digits, _ . : -), e.g. Agent(Explore)`;
}

/** `Agent(type)` and `Task(type)`, the older name of the same rule. */
export const agentRuleMatcher: RuleContentMatcher = { matches: matchAgentRule, validate: validateAgentRule };
