// A Keel decision in Claude Code's words: `decision` accept or reject and the `source` of its
// tool_decision telemetry event and of stream-json's tool_result_meta, so that dashboards and scripts
// written for Claude Code read Keel's decisions unchanged. Keel's own detail travels beside it.
import type { DecisionReason } from "./types.ts";

export type ClaudeCodeDecision = "accept" | "reject";

/** Claude Code's sources: a setting (rule, mode, the tool's checks), a hook, the classifier, or a person. */
export type ClaudeCodeDecisionSource =
  | "config"
  | "hook"
  | "classifier"
  | "user_temporary"
  | "user_permanent"
  | "user_reject"
  | "user_abort";

export interface ClaudeCodeDecisionWords {
  decision: ClaudeCodeDecision;
  source: ClaudeCodeDecisionSource;
  /** The kind of check that decided on its own (rule, mode...); absent when a person answered. */
  reason_type?: string;
}

function sourceOf(reason: DecisionReason, behavior: "allow" | "deny"): ClaudeCodeDecisionSource {
  switch (reason.type) {
    case "hook":
      return "hook";
    case "classifier":
      return "classifier";
    case "user":
      if (reason.choice === "reject") return "user_reject";
      if (behavior === "deny") return "user_abort";
      return reason.choice === "always" ? "user_permanent" : "user_temporary";
    default:
      return "config";
  }
}

/** Kinds Claude Code names as Keel does; the rest are Keel's own checks (`other`) or nobody's. */
const REASON_TYPES: Partial<Record<DecisionReason["type"], string>> = {
  rule: "rule",
  mode: "mode",
  hook: "hook",
  classifier: "classifier",
  safetyCheck: "safetyCheck",
  tool: "other",
};

/** A final decision (allow or deny) with who made it, as Claude Code words it. */
export function claudeCodeDecision(
  behavior: "allow" | "deny",
  reason: DecisionReason,
): ClaudeCodeDecisionWords {
  const reasonType = REASON_TYPES[reason.type];
  return {
    decision: behavior === "allow" ? "accept" : "reject",
    source: sourceOf(reason, behavior),
    ...(reasonType ? { reason_type: reasonType } : {}),
  };
}
