// One audit record as a `keel.tool_decision` event: the attributes of Claude Code's
// `claude_code.tool_decision` (tool_name, tool_use_id, decision accept/reject, source, session.id,
// app.version, event.name, event.timestamp) plus Keel's (decided_by, the rule and its settings source,
// the governed agent, the surface, the mode). The tool's input, the reason text (which quotes paths and
// commands) and a hook's command go out only with OTEL_LOG_TOOL_DETAILS=1, secrets redacted even then.
import type { Redactor } from "../audit/redact.ts";
import { claudeCodeDecision } from "../permissions/claudeCodeDecision.ts";
import type { DecisionReason } from "../permissions/types.ts";
import type { AuditRecord } from "../pipeline/services.ts";
import type { SpooledEvent } from "./spool.ts";

/** Where a decision was made: Keel's agent, `keel mcp`, `keel tool`, `keel check`, `keel hook <agent>`. */
export type DecisionSurface = "agent" | "mcp" | "tool" | "check" | "hook";

/** An audit record, with the fields a record made for another agent adds (agentHooks/auditRecord.ts). */
export type DecisionRecord = AuditRecord & { agent?: string; hookEvent?: string; noOpinion?: string };

export interface EventContext {
  surface: DecisionSurface;
  appVersion: string;
  /** OTEL_LOG_TOOL_DETAILS: the input and the reason text go out too. */
  details: boolean;
  /** Secrets of the environment out of what details carry. */
  redact: Redactor;
}

/** Claude Code's decision words; for another agent's hook, Keel's ask and no opinion keep their own. */
function decisionWords(record: DecisionRecord): { decision: string; source: string; reason_type?: string } {
  const reason = record.decisionReason as DecisionReason | undefined;
  if ((record.behavior === "allow" || record.behavior === "deny") && reason?.type)
    return claudeCodeDecision(record.behavior, reason);
  if (record.behavior === "allow" || record.behavior === "deny")
    return { decision: record.behavior === "allow" ? "accept" : "reject", source: "config" };
  return { decision: record.behavior === "ask" ? "ask" : "abstain", source: "config" };
}

function ruleAttributes(reason: DecisionReason | undefined): Record<string, string> {
  if (reason?.type !== "rule") return {};
  const { value, source, behavior } = reason.rule;
  const rule = value.ruleContent === undefined ? value.toolName : `${value.toolName}(${value.ruleContent})`;
  return { rule, rule_behavior: behavior, rule_source: source };
}

function reasonText(record: DecisionRecord): string | undefined {
  if (record.noOpinion) return record.noOpinion;
  const reason = record.decisionReason as { reason?: unknown } | undefined;
  return typeof reason?.reason === "string" ? reason.reason : undefined;
}

/** The event of a decision, or undefined when the call failed before any decision was made. */
export function decisionEvent(record: DecisionRecord, context: EventContext): SpooledEvent | undefined {
  const forAgent = record.hookEvent !== undefined;
  if (record.behavior === "none" && !forAgent) return undefined;
  // A classifier verdict that came after its call was decided adds to that record; it is no decision.
  if (record.classifierVerdictFor !== undefined) return undefined;
  const reason = record.decisionReason as DecisionReason | undefined;
  const words = decisionWords(record);
  const agent = record.agent ?? "keel";
  // A hook's name is its command line: a detail.
  const decidedBy = reason?.type === "hook" && !context.details ? "hook" : record.decidedBy;
  const check = reason && "check" in reason && typeof reason.check === "string" ? reason.check : undefined;
  const text = context.details ? reasonText(record) : undefined;
  const attributes: SpooledEvent["attributes"] = {
    "event.name": "tool_decision",
    "event.timestamp": record.time,
    "session.id": record.sessionId,
    "app.version": context.appVersion,
    tool_name: record.tool,
    tool_use_id: record.toolUseId,
    decision: words.decision,
    source: words.source,
    ...(words.reason_type ? { reason_type: words.reason_type } : {}),
    decided_by: decidedBy,
    behavior: record.behavior,
    ...(reason?.type ? { decision_reason_type: reason.type } : {}),
    ...ruleAttributes(reason),
    ...(check ? { check } : {}),
    agent,
    surface: context.surface,
    ...(record.mode ? { permission_mode: record.mode } : {}),
    ...(record.hookEvent ? { hook_event: record.hookEvent } : {}),
    ...(record.agentId ? { agent_id: record.agentId } : {}),
    duration_ms: Math.round(record.durationMs.permission * 100) / 100,
    ...(context.details ? { tool_input: context.redact(record.inputSummary) } : {}),
    ...(text !== undefined ? { reason: context.redact(text) } : {}),
  };
  return {
    v: 1,
    time: record.time,
    attributes,
    counter: { tool_name: record.tool, decision: words.decision, source: words.source, agent },
  };
}
