// The final `result` record of print mode (`keel run --output-format json|stream-json`), in Claude Code
// 2.1.332's shape: subtype success / error_max_turns / error_max_budget_usd / error_during_execution,
// is_error, num_turns counted as Claude Code counts them, result (absent on the error subtypes),
// stop_reason, total_cost_usd, usage, session_id, uuid, permission_denials. The stream's lines are
// in streamRecords.ts.

import type { ResultEvent } from "../pipeline/runToolUse.ts";
import { randomUUID } from "../tool/lazyCrypto.ts";
import type { ToolUseBlock } from "../tool/messages.ts";
import type { AgentEvent, EndReason, RunOutcome } from "./events.ts";
import type { StopReason, Usage } from "./provider.ts";

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
  #toolResults = 0;
  #stopReason: StopReason | undefined;
  #requestStarted: number | undefined;

  /** The call behind a result (name and input), once its message has streamed. */
  call(toolUseId: string): ToolUseBlock | undefined {
    return this.#calls.get(toolUseId);
  }

  get apiMs(): number {
    return this.#apiMs;
  }

  /** Tool results sent back to the model (Claude Code counts each as a turn). */
  get toolResults(): number {
    return this.#toolResults;
  }

  /** The last assistant message's stop reason. */
  get stopReason(): StopReason | undefined {
    return this.#stopReason;
  }

  observe(event: AgentEvent, now = performance.now()): void {
    if (event.type === "request_start") this.#requestStarted = now;
    else if (event.type === "stream" && event.event.type === "tool_use_complete")
      this.#calls.set(event.event.block.id, event.event.block);
    else if (event.type === "assistant") {
      this.#stopClock(now);
      this.#stopReason = event.stopReason;
      if (typeof event.message.content !== "string")
        for (const block of event.message.content)
          if (block.type === "tool_use") this.#calls.set(block.id, block);
    } else if (event.type === "user" && typeof event.message.content !== "string") {
      for (const block of event.message.content) if (block.type === "tool_result") this.#toolResults++;
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
  /** This result's place among the session's results (0 for the first prompt). */
  index: number;
}

/**
 * Claude Code's count: the prompt and each tool result sent back are a turn each; a run stopped by
 * --max-turns counts the model calls it made and the one the limit refused.
 */
export function claudeCodeTurns(outcome: RunOutcome, tally: RunTally): number {
  return outcome.reason === "max_turns" ? outcome.turns + 1 : 1 + tally.toolResults;
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
    num_turns: claudeCodeTurns(outcome, tally),
    // Claude Code gives the answer on success only; the error subtypes carry `errors` instead.
    ...(subtype === "success" ? { result: outcome.text } : {}),
    stop_reason: apiStopReason(tally.stopReason),
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
    // Claude Code has it on success (null) and when the model API failed.
    ...(subtype === "success" || outcome.error ? { api_error_status: outcome.error?.status ?? null } : {}),
    uuid: randomUUID(),
    // Keel reads the next --input-format stream-json prompt only when a run ends: none wait queued.
    queued_turn_count: 0,
    result_index: input.index,
    // Keel's own reason (completed, max_turns, budget, interrupted, error, hook_stopped, prompt_blocked,
    // max_tokens, refusal): finer than the subtype.
    terminal_reason: outcome.reason,
    // Keel's: the model and the number of model calls made.
    model: input.model,
    model_calls: outcome.turns,
    ...(subtype !== "success" ? { errors: [outcome.detail ?? outcome.reason] } : {}),
    ...(outcome.detail ? { detail: outcome.detail } : {}),
    ...(outcome.error ? { error: { code: outcome.error.code, message: outcome.error.message } } : {}),
  };
}

/** Anthropic's stop reasons as they are; Keel's catch-all `other` has no name there. */
export function apiStopReason(reason: StopReason | undefined): string | null {
  return reason === undefined || reason === "other" ? null : reason;
}
