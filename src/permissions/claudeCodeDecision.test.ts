import { describe, expect, it } from "vitest";
import { claudeCodeDecision } from "./claudeCodeDecision.ts";
import type { DecisionReason } from "./types.ts";

const rule: DecisionReason = {
  type: "rule",
  rule: { source: "policy", behavior: "deny", value: { toolName: "Bash", ruleContent: "rm:*" } },
};

describe("claudeCodeDecision", () => {
  it.each<{ behavior: "allow" | "deny"; reason: DecisionReason; expected: object }>([
    {
      behavior: "deny",
      reason: rule,
      expected: { decision: "reject", source: "config", reason_type: "rule" },
    },
    {
      behavior: "allow",
      reason: { type: "mode", mode: "acceptEdits" },
      expected: { decision: "accept", source: "config", reason_type: "mode" },
    },
    {
      behavior: "allow",
      reason: { type: "tool", reason: "read-only", check: "bash-analyzer" },
      expected: { decision: "accept", source: "config", reason_type: "other" },
    },
    {
      behavior: "deny",
      reason: { type: "safetyCheck", reason: "protected path" },
      expected: { decision: "reject", source: "config", reason_type: "safetyCheck" },
    },
    {
      behavior: "deny",
      reason: { type: "hook", hookName: "guard.sh" },
      expected: { decision: "reject", source: "hook", reason_type: "hook" },
    },
    {
      behavior: "allow",
      reason: { type: "classifier", classifier: "model", reason: "harmless" },
      expected: { decision: "accept", source: "classifier", reason_type: "classifier" },
    },
    {
      behavior: "allow",
      reason: { type: "user", prompter: "terminal", choice: "once" },
      expected: { decision: "accept", source: "user_temporary" },
    },
    {
      behavior: "allow",
      reason: { type: "user", prompter: "terminal", choice: "always" },
      expected: { decision: "accept", source: "user_permanent" },
    },
    {
      behavior: "deny",
      reason: { type: "user", prompter: "terminal", choice: "reject" },
      expected: { decision: "reject", source: "user_reject" },
    },
    {
      behavior: "deny",
      reason: { type: "user", prompter: "terminal", choice: "once", reason: "cancelled" },
      expected: { decision: "reject", source: "user_abort" },
    },
    {
      behavior: "deny",
      reason: { type: "noPrompter", reason: "non-interactive" },
      expected: { decision: "reject", source: "config" },
    },
    {
      behavior: "deny",
      reason: { type: "default", reason: "no rule" },
      expected: { decision: "reject", source: "config" },
    },
  ])("$behavior by $reason.type -> $expected", ({ behavior, reason, expected }) => {
    expect(claudeCodeDecision(behavior, reason)).toEqual(expected);
  });
});
