// The vocabulary of permission decisions: modes, rule sources, rules, results and who decided.

/** `auto` decides like `default`; the agent adds a model-based classifier that may approve ordinary asks. */
export const PERMISSION_MODES = [
  "default",
  "acceptEdits",
  "plan",
  "bypassPermissions",
  "dontAsk",
  "auto",
] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** Highest precedence first, for display; rules of every source merge (deny > ask > allow). */
export const RULE_SOURCES = ["policy", "cliArg", "session", "local", "project", "user"] as const;
export type RuleSource = (typeof RULE_SOURCES)[number];

export type RuleBehavior = "allow" | "deny" | "ask";

export interface RuleValue {
  toolName: string;
  /** The specifier inside the parentheses, unescaped; absent for a blanket rule. */
  ruleContent?: string;
}

export interface PermissionRule {
  source: RuleSource;
  behavior: RuleBehavior;
  value: RuleValue;
}

/** Who decided. Every decision carries one, and the audit log records it. */
export type DecisionReason =
  | { type: "rule"; rule: PermissionRule }
  | { type: "mode"; mode: PermissionMode }
  | { type: "tool"; reason: string; check?: string }
  /** `allowRuleApproves`: an allow rule naming the call still approves it (no mode, hook or classifier does). */
  | { type: "safetyCheck"; reason: string; check?: string; allowRuleApproves?: boolean }
  | { type: "hook"; hookName: string; reason?: string }
  | { type: "classifier"; classifier: string; reason: string }
  | { type: "user"; prompter: string; choice: "once" | "always" | "reject"; reason?: string }
  | { type: "default"; reason: string }
  | { type: "noPrompter"; reason: string };

/** A rule a person could add to stop being asked; offered with an `ask`. */
export interface RuleSuggestion {
  behavior: RuleBehavior;
  rule: string;
  destination: RuleSource;
}

export type PermissionResult<Input = unknown> =
  | { behavior: "allow"; updatedInput?: Input; decisionReason?: DecisionReason; message?: string }
  | { behavior: "deny"; message: string; decisionReason: DecisionReason }
  | { behavior: "ask"; message: string; decisionReason?: DecisionReason; suggestions?: RuleSuggestion[] }
  | {
      /**
       * No opinion of the tool's own: the engine applies the rules, and with none covering the call
       * asks with this message (and this reason, when the tool gives one).
       */
      behavior: "passthrough";
      message?: string;
      updatedInput?: Input;
      decisionReason?: DecisionReason;
      suggestions?: RuleSuggestion[];
    };

/** What the engine concludes: never `passthrough`, always with a reason. */
export type PermissionDecision<Input = unknown> =
  | { behavior: "allow"; updatedInput?: Input; decisionReason: DecisionReason; message?: string }
  | { behavior: "deny"; message: string; decisionReason: DecisionReason }
  | { behavior: "ask"; message: string; decisionReason: DecisionReason; suggestions?: RuleSuggestion[] };

export function describeDecider(reason: DecisionReason): string {
  switch (reason.type) {
    case "rule":
      return `${reason.rule.behavior} rule ${formatRuleValueForDisplay(reason.rule.value)} from ${reason.rule.source} settings`;
    case "mode":
      return `permission mode ${reason.mode}`;
    case "tool":
      return `the tool's own check${reason.check ? ` (${reason.check})` : ""}`;
    case "safetyCheck":
      return `safety check${reason.check ? ` (${reason.check})` : ""}`;
    case "hook":
      return `hook ${reason.hookName}`;
    case "classifier":
      return `classifier ${reason.classifier}`;
    case "user":
      return `user via ${reason.prompter} (${reason.choice})`;
    case "default":
      return "default (no rule matched)";
    case "noPrompter":
      return "nobody to ask (non-interactive)";
  }
}

/**
 * Who decided, for a person reading an approval or `keel check`: as describeDecider (which the audit log
 * and JSON keep), except the default ask, which says what it means.
 */
export function plainDecider(reason: DecisionReason): string {
  if (reason.type === "default") return "no rule covers this call, so a person is asked";
  if (reason.type === "noPrompter") return `nobody could be asked: ${reason.reason}`;
  return describeDecider(reason);
}

function formatRuleValueForDisplay(value: RuleValue): string {
  return value.ruleContent === undefined ? value.toolName : `${value.toolName}(${value.ruleContent})`;
}
