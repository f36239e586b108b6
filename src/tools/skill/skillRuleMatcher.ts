// `Skill(name)` rules: the exact skill name, or `prefix:*` for a family of skills (`Skill(deploy:*)`).
import type { RuleContentMatcher } from "../../permissions/matchers.ts";

export function skillNameMatches(pattern: string, name: string): boolean {
  const wanted = pattern.trim().replace(/^\//, "");
  if (wanted.endsWith(":*")) {
    const prefix = wanted.slice(0, -2);
    return name === prefix || name.startsWith(`${prefix}:`) || name.startsWith(`${prefix}-`);
  }
  return name === wanted;
}

export const skillRuleMatcher: RuleContentMatcher = {
  matches: ({ input, rule }) => {
    const skill = (input as { skill?: unknown } | null)?.skill;
    // A call this matcher cannot read is covered by deny and ask rules, never by allow rules.
    if (typeof skill !== "string") return rule.behavior !== "allow";
    return skillNameMatches(rule.value.ruleContent ?? "", skill.trim().replace(/^\//, ""));
  },
  validate: (content) =>
    content.includes("*") && !content.endsWith(":*")
      ? `"${content}": only a trailing ":*" wildcard is allowed`
      : undefined,
};
