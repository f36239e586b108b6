// The JSON records of print mode (`keel run --output-format json|stream-json`), in Claude Code's shape:
// the final `result` (subtype success / error_max_turns / error_max_budget_usd / error_during_execution,
// is_error, num_turns, total_cost_usd, usage, session_id, permission_denials) and the stream's events.
import type { ResultEvent } from "../pipeline/runToolUse.ts";
import type { ToolUseBlock } from "../tool/messages.ts";
import type { AgentEvent, EndReason, RunOutcome } from "./events.ts";
import type { Usage } from "./provider.ts";

/** A call the permission step refused (a rule, the mode, a hook, nobody to ask, the person). */
export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: unknown;
}

export type ResultSubtype = "success" | "error_max_turns" | "error_max_budget_usd" | "error_during_execution";

export function resultSubtype(reason: EndReason): ResultSubtype {
  switch (reason) {
    case "completed":
      return "success";
    case "max_turns":
      return "error_max_turns";
    case "budget":
      return "error_max_budget_usd";
    default:
      return "error_during_execution";
  }
}

/** Refused by the permission step: a rule, the mode, a hook's deny, or nobody (or the person) said no. */
export function isRefusal(result: ResultEvent): boolean {
  return result.errorCode === "permission_denied" || result.errorCode === "hook_blocked";
}

export function apiUsage(usage: Usage) {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
  };
}

/** What one prompt's run adds up to, gathered from its events while it runs. */
export class RunTally {
  readonly denials: PermissionDenial[] = [];
  readonly #calls = new Map<string, ToolUseBlock>();
  #apiMs = 0;
  #requestStarted: number | undefined;

  /** The call behind a result (name and input), once its message has streamed. */
  call(toolUseId: string): ToolUseBlock | undefined {
    return this.#calls.get(toolUseId);
  }

  get apiMs(): number {
    return this.#apiMs;
  }

  observe(event: AgentEvent, now = performance.now()): void {
    if (event.type === "request_start") this.#requestStarted = now;
    else if (event.type === "stream" && event.event.type === "tool_use_complete")
      this.#calls.set(event.event.block.id, event.event.block);
    else if (event.type === "assistant") {
      this.#stopClock(now);
      if (typeof event.message.content !== "string")
        for (const block of event.message.content)
          if (block.type === "tool_use") this.#calls.set(block.id, block);
    } else if (event.type === "tool_result" && isRefusal(event.result)) {
      const call = this.#calls.get(event.result.toolUseId);
      this.denials.push({
        tool_name: event.result.toolName,
        tool_use_id: event.result.toolUseId,
        tool_input: call?.input ?? null,
      });
    } else if (event.type === "end") this.#stopClock(now);
  }

  #stopClock(now: number): void {
    if (this.#requestStarted === undefined) return;
    this.#apiMs += now - this.#requestStarted;
    this.#requestStarted = undefined;
  }
}

export interface ResultRecordInput {
  sessionId: string;
  model: string;
  contextWindow?: number;
  outcome: RunOutcome;
  durationMs: number;
  tally: RunTally;
}

export function resultRecord(input: ResultRecordInput): Record<string, unknown> {
  const { outcome, tally } = input;
  const subtype = resultSubtype(outcome.reason);
  return {
    type: "result",
    subtype,
    is_error: subtype !== "success",
    duration_ms: Math.round(input.durationMs),
    duration_api_ms: Math.round(tally.apiMs),
    num_turns: outcome.turns,
    result: outcome.text,
    session_id: input.sessionId,
    // null, not 0, when the model's price is unknown: a script must not read "free".
    total_cost_usd: outcome.costUsd ?? null,
    usage: apiUsage(outcome.usage),
    modelUsage: {
      [input.model]: {
        inputTokens: outcome.usage.inputTokens,
        outputTokens: outcome.usage.outputTokens,
        cacheReadInputTokens: outcome.usage.cacheReadInputTokens,
        cacheCreationInputTokens: outcome.usage.cacheCreationInputTokens,
        costUSD: outcome.costUsd ?? null,
        ...(input.contextWindow ? { contextWindow: input.contextWindow } : {}),
      },
    },
    permission_denials: tally.denials,
    // Keel's own reason (completed, max_turns, budget, interrupted, error, hook_stopped, prompt_blocked,
    // max_tokens, refusal): finer than the subtype.
    terminal_reason: outcome.reason,
    model: input.model,
    ...(subtype !== "success" ? { errors: [outcome.detail ?? outcome.reason] } : {}),
    ...(outcome.detail ? { detail: outcome.detail } : {}),
    ...(outcome.error ? { error: { code: outcome.error.code, message: outcome.error.message } } : {}),
  };
}

/** One stream-json line for an event (undefined: the event has no record). */
export function streamJsonRecord(event: AgentEvent, partial: boolean): Record<string, unknown> | undefined {
  switch (event.type) {
    case "stream":
      return partial ? { type: "stream_event", event: event.event } : undefined;
    case "assistant":
      return {
        type: "assistant",
        message: event.message,
        stop_reason: event.stopReason,
        usage: apiUsage(event.usage),
        cost_usd: event.costUsd ?? null,
      };
    case "user":
      return { type: "user", message: event.message };
    case "tool_result":
      return {
        type: "tool_decision",
        tool_use_id: event.result.toolUseId,
        tool: event.result.toolName,
        is_error: event.result.isError,
        ...(event.result.errorCode ? { error_code: event.result.errorCode } : {}),
        ...(event.result.decision
          ? { behavior: event.result.decision.behavior, decided_by: event.result.decision.decidedBy }
          : {}),
      };
    case "retry":
      return {
        type: "system",
        subtype: "retry",
        attempt: event.attempt,
        delay_ms: event.delayMs,
        error: event.error.message,
      };
    case "notice":
      return { type: "system", subtype: "notice", level: event.level, text: event.text };
    case "compacted":
      return {
        type: "system",
        subtype: "compacted",
        trigger: event.trigger,
        summarized: event.summarizedMessages,
        kept: event.keptMessages,
      };
    default:
      return undefined;
  }
}
