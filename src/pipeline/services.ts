// Extension points of the pipeline: later work (settings, hooks, the agent, MCP) fills these in.
import type { PermissionDecision, PermissionMode, RuleSuggestion } from "../permissions/types.ts";
import type { ToolUseContext } from "../tool/context.ts";
import type { ToolErrorCode } from "../tool/errors.ts";
import type { Tool } from "../tool/Tool.ts";

/** What one hook run produced, for the audit log and the user. */
export interface HookOutcome {
  hookName: string;
  event: string;
  outcome: "success" | "blocking" | "non_blocking_error" | "cancelled";
  exitCode?: number;
  durationMs: number;
  message?: string;
}

export interface PreToolUseHookResult {
  /** Aggregated across all matching hooks: deny > ask > allow. */
  decision?: "allow" | "deny" | "ask";
  reason?: string;
  /** The hook that decided (for "who decided"). */
  hookName?: string;
  updatedInput?: Record<string, unknown>;
  additionalContext: string[];
  /** `continue: false`: stop the agent loop after this call. */
  preventContinuation?: boolean;
  stopReason?: string;
  /** Messages for the user (systemMessage, non-blocking errors with stderr). */
  userMessages: string[];
  outcomes: HookOutcome[];
}

export interface PostToolUseHookResult {
  /** `decision: "block"` or exit 2: feedback the model sees with the result. */
  blockReason?: string;
  additionalContext: string[];
  preventContinuation?: boolean;
  stopReason?: string;
  userMessages: string[];
  outcomes: HookOutcome[];
}

export interface ToolHookArgs {
  tool: Tool;
  input: unknown;
  toolUseId: string;
  context: ToolUseContext;
  signal: AbortSignal;
}

/** PermissionRequest hooks answer an approval request before a person is asked. */
export interface PermissionRequestHookResult {
  decision?: {
    behavior: "allow" | "deny";
    updatedInput?: Record<string, unknown>;
    message?: string;
    hookName: string;
  };
  userMessages: string[];
  outcomes: HookOutcome[];
}

export interface ToolHookRunner {
  preToolUse(args: ToolHookArgs): Promise<PreToolUseHookResult>;
  permissionRequest?(
    args: ToolHookArgs & { suggestions: readonly RuleSuggestion[] },
  ): Promise<PermissionRequestHookResult>;
  postToolUse(args: ToolHookArgs & { response: unknown }): Promise<PostToolUseHookResult>;
  postToolUseFailure(
    args: ToolHookArgs & { error: string; isInterrupt: boolean },
  ): Promise<PostToolUseHookResult>;
}

export interface ApprovalRequest {
  tool: Tool;
  input: unknown;
  toolUseId: string;
  /** Why approval is needed, for the person. */
  message: string;
  decision: Extract<PermissionDecision, { behavior: "ask" }>;
  suggestions: RuleSuggestion[];
  context: ToolUseContext;
  signal: AbortSignal;
}

export type ApprovalAnswer =
  | { behavior: "allow"; choice: "once" | "always"; updatedInput?: unknown; rule?: RuleSuggestion }
  | {
      behavior: "deny";
      reason?: string;
      /**
       * Nobody gave an answer (a form closed unshown, a prompter that could not reach a person): why. The
       * refusal is then recorded as nobody's, not the person's.
       */
      unanswered?: string;
    };

/** A form an MCP server asks the person to fill in (MCP elicitation, form mode). */
export interface ElicitationRequest {
  /** The MCP server that asks, as configured. */
  serverName: string;
  message: string;
  /** A flat JSON Schema object: each property a string, number, integer, boolean or enum field. */
  requestedSchema: {
    type: "object";
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  signal: AbortSignal;
}

export type ElicitationAnswer =
  | { action: "accept"; content: Record<string, string | number | boolean | string[]> }
  | { action: "decline" }
  | { action: "cancel" };

/** The one interface for asking a person: terminal dialog, library callback, MCP elicitation. */
export interface Prompter {
  readonly name: string;
  ask(request: ApprovalRequest): Promise<ApprovalAnswer>;
  /** Forms from MCP servers; a prompter without it cannot answer them (they are declined). */
  elicit?(request: ElicitationRequest): Promise<ElicitationAnswer>;
}

export interface ClassifierVerdict {
  /** `allow` may turn an ordinary ask into allow; never a deny, an ask rule or a safety check. */
  behavior: "allow" | "ask" | "deny";
  reason: string;
  /** The classifier did not weigh this call (the rules refuse it): no verdict to record later. */
  notConsulted?: boolean;
}

/**
 * Started beside the permission and hook steps, in every mode: its verdict is recorded in the audit log
 * (a verdict that comes after the decision as a record of its own, `classifierVerdictFor`), and decides
 * only in `auto` mode.
 */
export interface SpeculativeClassifier {
  readonly name: string;
  classify(args: {
    tool: Tool;
    input: unknown;
    context: ToolUseContext;
    signal: AbortSignal;
  }): Promise<ClassifierVerdict>;
}

export interface AuditRecord {
  time: string;
  sessionId: string;
  toolUseId: string;
  tool: string;
  inputSummary: string;
  behavior: "allow" | "deny" | "ask" | "none";
  decidedBy: string;
  decisionReason?: unknown;
  hooks: HookOutcome[];
  classifier?: ClassifierVerdict & { durationMs: number };
  durationMs: { total: number; permission: number; call: number };
  resultChars: number;
  isError: boolean;
  errorCode?: ToolErrorCode;
  agentId?: string;
  /**
   * Set on a record that only adds the classifier's verdict to an earlier record of the same call
   * (same toolUseId): the verdict came after the decision was recorded.
   */
  classifierVerdictFor?: string;
  /** The `keel worker` that decided, for a remote agent's call (recorded in the parent's log). */
  worker?: string;
  /** The permission mode the call was decided in. */
  mode?: PermissionMode;
}

export interface AuditSink {
  record(entry: AuditRecord): void;
}

/** Serializes a call with others (the orchestrator's gate); resolves to a release function. */
export type ConcurrencyGate = (tool: Tool, input: unknown, signal: AbortSignal) => Promise<() => void>;

export type PermissionDecider = <I>(
  tool: Tool<I>,
  input: I,
  context: ToolUseContext,
) => Promise<PermissionDecision<I>>;

/**
 * The session's services, the third argument of `runToolUse`. All optional; without them a call is
 * still governed: the rule engine decides, no hooks run, and an `ask` is refused with the reason.
 */
export interface PipelineServices {
  /** Replaces the rule engine's decision (tests, or a policy of your own). */
  decidePermission?: PermissionDecider;
  /** Runs the user's PreToolUse/PostToolUse/PermissionRequest hooks (`HookRunner`). */
  hooks?: ToolHookRunner;
  /** Judges calls in `auto` mode, started beside the permission check. */
  classifier?: SpeculativeClassifier;
  /** Who answers an `ask`: a terminal, an MCP client, or your code (`callbackPrompter(canUseTool)`). */
  prompter?: Prompter;
  /** Receives one record per call: who decided, the outcome, the timings (`record(entry)`). */
  audit?: AuditSink;
  /** Decides what may run beside what (the orchestrator's; one call alone needs none). */
  gate?: ConcurrencyGate;
}
