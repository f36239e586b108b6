// Print mode (`keel run`): one prompt, run to the end, written as text, one JSON object, or JSON lines.
// Ctrl-C once interrupts the agent (tools that can stop, stop); twice aborts everything.
import type { Writable } from "node:stream";
import type { ToolUseBlock } from "../tool/messages.ts";
import { viewText } from "../tool/viewText.ts";
import { releaseSession } from "../tools/shared/releaseSession.ts";
import type { AgentSession } from "./createAgent.ts";
import type { AgentEvent, RunOutcome } from "./events.ts";
import { formatCost, formatUsage } from "./format.ts";
import type { Usage } from "./provider.ts";
import { viewToolResult, viewToolUse } from "./toolViews.ts";

export interface PrintOptions {
  format: "text" | "json" | "stream-json";
  verbose: boolean;
  /** stream-json: also the stream's deltas. */
  partial: boolean;
  stdout: Writable;
  stderr: Writable;
}

function apiUsage(usage: Usage) {
  return {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheCreationInputTokens,
    cache_read_input_tokens: usage.cacheReadInputTokens,
  };
}

export function resultRecord(
  session: AgentSession,
  outcome: RunOutcome,
  durationMs: number,
): Record<string, unknown> {
  return {
    type: "result",
    subtype: outcome.reason,
    is_error: outcome.reason !== "completed",
    result: outcome.text,
    session_id: session.agent.sessionId,
    num_turns: outcome.turns,
    duration_ms: Math.round(durationMs),
    model: session.agent.model,
    usage: apiUsage(outcome.usage),
    total_cost_usd: outcome.costUsd ?? null,
    ...(outcome.detail ? { detail: outcome.detail } : {}),
    ...(outcome.error ? { error: { code: outcome.error.code, message: outcome.error.message } } : {}),
  };
}

/** Text mode: the answer on stdout as it streams; tool activity (verbose) and warnings on stderr. */
class TextPrinter {
  readonly #options: PrintOptions;
  readonly #session: AgentSession;
  readonly #calls = new Map<string, ToolUseBlock>();
  #atLineStart = true;
  #wroteText = false;

  constructor(session: AgentSession, options: PrintOptions) {
    this.#session = session;
    this.#options = options;
  }

  #out(text: string): void {
    if (text === "") return;
    this.#options.stdout.write(text);
    this.#atLineStart = text.endsWith("\n");
  }

  #err(text: string): void {
    this.#options.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
  }

  event(event: AgentEvent): void {
    const tools = this.#session.agent.pool.all;
    switch (event.type) {
      case "request_start":
        if (this.#wroteText && !this.#atLineStart) this.#out("\n");
        break;
      case "stream":
        if (event.event.type === "text_delta") {
          this.#out(event.event.text);
          this.#wroteText = true;
        }
        if (event.event.type === "tool_use_complete") {
          this.#calls.set(event.event.block.id, event.event.block);
          if (this.#options.verbose) this.#err(`● ${viewToolUse(tools, event.event.block).title}`);
        }
        break;
      case "tool_result":
        if (this.#options.verbose) {
          const view = viewToolResult(tools, this.#calls.get(event.result.toolUseId), event.result);
          const text = viewText(view, 6).replace(/^/gm, "  ");
          this.#err(`  ⎿ ${event.result.isError ? "error: " : ""}${text.trimStart()}`);
        }
        break;
      case "retry":
        this.#err(
          `keel: ${event.error.message} Retrying in ${(event.delayMs / 1000).toFixed(1)} s (attempt ${event.attempt}).`,
        );
        break;
      case "notice":
        if (event.level === "warning" || this.#options.verbose) this.#err(`keel: ${event.text}`);
        break;
      case "compacted":
        if (this.#options.verbose)
          this.#err(`keel: conversation compacted (${event.summarizedMessages} messages summarized)`);
        break;
      case "end": {
        if (!this.#atLineStart) this.#out("\n");
        const outcome = event.outcome;
        if (outcome.reason !== "completed")
          this.#err(`keel: stopped (${outcome.reason})${outcome.detail ? `: ${outcome.detail}` : ""}`);
        if (this.#options.verbose)
          this.#err(
            `keel: ${outcome.turns} turns, ${formatUsage(outcome.usage)}, cost ${formatCost(outcome.costUsd)}`,
          );
        break;
      }
      default:
        break;
    }
  }
}

function streamJsonRecord(event: AgentEvent, partial: boolean): Record<string, unknown> | undefined {
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

export async function runPrintMode(
  session: AgentSession,
  prompt: string,
  options: PrintOptions,
): Promise<RunOutcome> {
  const { agent } = session;
  const started = performance.now();
  const line = (record: Record<string, unknown>) => options.stdout.write(`${JSON.stringify(record)}\n`);
  const text = options.format === "text" ? new TextPrinter(session, options) : undefined;
  for (const notice of session.notices) options.stderr.write(`keel: ${notice}\n`);
  if (options.format === "stream-json")
    line({
      type: "system",
      subtype: "init",
      session_id: agent.sessionId,
      model: agent.model,
      provider: session.config.provider,
      cwd: agent.context.getAppState().cwd,
      permission_mode: agent.context.getAppState().toolPermissionContext.mode,
      tools: agent.pool.offered().map((tool) => tool.name),
      ...(session.resumed ? { resumed: true } : {}),
    });
  // A call can finish while its message still streams; its record waits for the message's own record.
  let held: Array<Record<string, unknown>> = [];
  const streamJson = (event: AgentEvent) => {
    const record = streamJsonRecord(event, options.partial);
    if (!record) return;
    if (record.type === "tool_decision") {
      held.push(record);
      return;
    }
    line(record);
    if (record.type === "assistant" || event.type === "end") {
      for (const waiting of held) line(waiting);
      held = [];
    }
  };
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts === 1) agent.interrupt();
    else agent.context.abortController.abort(new Error("Aborted (Ctrl-C twice)"));
  };
  process.on("SIGINT", onSignal);
  let outcome: RunOutcome | undefined;
  try {
    for await (const event of agent.submit(prompt)) {
      if (event.type === "end") outcome = event.outcome;
      if (text) text.event(event);
      else if (options.format === "stream-json") streamJson(event);
    }
  } finally {
    process.off("SIGINT", onSignal);
    await session.hooks.sessionEnd("other", new AbortController().signal).catch(() => undefined);
    // Background commands and sub-agents end with the session rather than keep the process alive.
    await releaseSession(agent.sessionId);
  }
  if (!outcome) throw new Error("the agent ended without an outcome");
  if (options.format !== "text") line(resultRecord(session, outcome, performance.now() - started));
  return outcome;
}
