// Print mode (`keel run`): prompts run to the end, written as text, one JSON object, or JSON lines.
// Ctrl-C once interrupts the agent (tools that can stop, stop); twice stops the run. SIGTERM and
// SIGHUP stop it at once: everything is aborted, what the session started ends, and the process ends
// as stopped by that signal (tool/stopSignals.ts, the same for every command).
import type { Writable } from "node:stream";
import type { ContentBlock } from "../tool/messages.ts";
import { releaseSession } from "../tool/sessionEnd.ts";
import { onInterruptSignal, onStopSignal, type StopSignal } from "../tool/stopSignals.ts";
import type { AgentSession } from "./createAgent.ts";
import type { AgentEvent, RunOutcome } from "./events.ts";
import { RunTally, resultRecord, streamJsonRecord } from "./printRecords.ts";
import { TextPrinter } from "./printText.ts";

export { resultRecord } from "./printRecords.ts";

export interface PrintOptions {
  format: "text" | "json" | "stream-json";
  verbose: boolean;
  /** stream-json: also the stream's deltas. */
  partial: boolean;
  stdout: Writable;
  stderr: Writable;
}

export type PrintPrompt = string | ContentBlock[];

export interface PrintResult {
  /** The last prompt's outcome. */
  outcome: RunOutcome;
  /** Set when SIGTERM or SIGHUP stopped the run: the process should end as that signal says. */
  signal?: NodeJS.Signals;
}

/** Ctrl-C (the first interrupts the agent) and the stop signals, for the time of the run. */
function watchSignals(session: AgentSession, onStop: (signal: StopSignal) => void): () => void {
  const { agent } = session;
  let interrupted = false;
  const unwatchInterrupt = onInterruptSignal(() => {
    if (interrupted) return false;
    interrupted = true;
    agent.interrupt();
    return true;
  });
  const unwatchStop = onStopSignal((signal) => {
    onStop(signal);
    agent.interrupt();
    agent.context.abortController.abort(
      new Error(signal === "SIGINT" ? "Aborted (Ctrl-C twice)" : `Stopped by ${signal}`),
    );
  });
  return () => {
    unwatchInterrupt();
    unwatchStop();
  };
}

/**
 * Runs each prompt in turn in one session (one prompt for a task argument; one per stdin line with
 * `--input-format stream-json`), printing as `options.format` says, and reports the last outcome.
 */
export async function runPrintMode(
  session: AgentSession,
  prompts: PrintPrompt | AsyncIterable<PrintPrompt>,
  options: PrintOptions,
): Promise<PrintResult> {
  const { agent } = session;
  const line = (record: Record<string, unknown>) => options.stdout.write(`${JSON.stringify(record)}\n`);
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
  let signal: StopSignal | undefined;
  let wakeOnStop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    wakeOnStop = resolve;
  });
  const unwatch = watchSignals(session, (received) => {
    signal = received;
    wakeOnStop();
  });
  let outcome: RunOutcome | undefined;
  try {
    const source = typeof prompts === "string" || Array.isArray(prompts) ? single(prompts) : prompts;
    const iterator = source[Symbol.asyncIterator]();
    while (!signal) {
      const next = await Promise.race([iterator.next(), stopped.then(() => undefined)]);
      if (!next || next.done) break;
      outcome = await runOnePrompt(session, next.value, options, line);
    }
    if (signal) void iterator.return?.();
  } finally {
    unwatch();
    await session.hooks.sessionEnd("other", new AbortController().signal).catch(() => undefined);
    // Background commands and sub-agents end with the session rather than keep the process alive.
    await releaseSession(agent.sessionId);
  }
  if (!outcome) {
    if (!signal) throw new Error("no prompt was given");
    outcome = { reason: "interrupted", turns: 0, text: "", usage: agent.usage, costUsd: 0 };
  }
  return { outcome, ...(signal ? { signal } : {}) };
}

async function* single(prompt: PrintPrompt): AsyncGenerator<PrintPrompt> {
  yield prompt;
}

async function runOnePrompt(
  session: AgentSession,
  prompt: PrintPrompt,
  options: PrintOptions,
  line: (record: Record<string, unknown>) => void,
): Promise<RunOutcome> {
  const { agent } = session;
  const started = performance.now();
  const tally = new RunTally();
  const text =
    options.format === "text"
      ? new TextPrinter(
          {
            verbose: options.verbose,
            stdout: options.stdout,
            stderr: options.stderr,
            tools: () => agent.pool.all,
          },
          tally,
        )
      : undefined;
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
    if (record.type === "assistant") {
      for (const waiting of held) line(waiting);
      held = [];
    }
  };
  let outcome: RunOutcome | undefined;
  for await (const event of agent.submit(prompt)) {
    tally.observe(event);
    if (event.type === "end") outcome = event.outcome;
    if (text) text.event(event);
    else if (options.format === "stream-json") streamJson(event);
  }
  for (const waiting of held) line(waiting);
  if (!outcome) throw new Error("the agent ended without an outcome");
  if (options.format !== "text")
    line(
      resultRecord({
        sessionId: agent.sessionId,
        model: agent.model,
        contextWindow: agent.modelInfo.contextWindow,
        outcome,
        durationMs: performance.now() - started,
        tally,
      }),
    );
  return outcome;
}
