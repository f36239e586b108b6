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
import { RunTally, resultRecord } from "./printRecords.ts";
import { TextPrinter } from "./printText.ts";
import { initRecord } from "./streamInit.ts";
import { type StreamRecord, StreamRecords } from "./streamRecords.ts";

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
  if (options.format === "stream-json") line(await initRecord(session));
  const streamRecords = new StreamRecords(agent.sessionId, options.partial);
  let results = 0;
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
  const jsonRun: JsonRun | undefined =
    options.format === "json" ? { tally: new RunTally(), started: performance.now() } : undefined;
  try {
    const source = typeof prompts === "string" || Array.isArray(prompts) ? single(prompts) : prompts;
    const iterator = source[Symbol.asyncIterator]();
    let nextPrompt: Promise<IteratorResult<PrintPrompt>> | undefined;
    let promptsDone = false;
    while (!signal) {
      // Input that came meanwhile (another session's message, a background agent's report, a scheduled
      // prompt) runs between prompts, once the agent is idle.
      const pending = agent.takePendingInput();
      if (pending) {
        if (pending.kind === "prompt") options.stderr.write(`keel: ${pending.label}\n`);
        outcome = await runOnePrompt(
          session,
          () => (pending.kind === "prompt" ? agent.submit(pending.prompt) : agent.continueWithMessages()),
          options,
          line,
          { streamRecords, index: results++, jsonRun },
        );
        continue;
      }
      if (promptsDone) {
        // The prompts are done: the session stays while what it started may still report back.
        if (!session.hasPendingWork?.()) break;
        await Promise.race([inputOrIdle(session), stopped]);
        continue;
      }
      nextPrompt ??= iterator.next();
      const input = inputArrived(session);
      const next = await Promise.race([
        nextPrompt,
        stopped.then(() => "stopped" as const),
        input.arrived.then(() => "input" as const),
      ]);
      input.cancel();
      if (next === "stopped") break;
      if (next === "input") continue;
      nextPrompt = undefined;
      if (next.done) {
        promptsDone = true;
        continue;
      }
      const prompt = next.value;
      outcome = await runOnePrompt(session, () => agent.submit(prompt), options, line, {
        streamRecords,
        index: results++,
        jsonRun,
      });
    }
    if (signal) void iterator.return?.();
  } finally {
    unwatch();
    await session.hooks.sessionEnd("other", new AbortController().signal).catch(() => undefined);
    // Background commands and sub-agents end with the session rather than keep the process alive.
    await releaseSession(agent.sessionId);
  }
  const ran = outcome !== undefined;
  if (!outcome) {
    if (!signal) throw new Error("no prompt was given");
    outcome = { reason: "interrupted", turns: 0, text: "", usage: agent.usage, costUsd: 0 };
  }
  if (jsonRun && ran)
    line(
      resultRecord({
        sessionId: agent.sessionId,
        model: agent.model,
        contextWindow: agent.modelInfo.contextWindow,
        outcome,
        durationMs: performance.now() - jsonRun.started,
        tally: jsonRun.tally,
        index: 0,
      }),
    );
  return { outcome, ...(signal ? { signal } : {}) };
}

async function* single(prompt: PrintPrompt): AsyncGenerator<PrintPrompt> {
  yield prompt;
}

/** Resolves when input arrives for the session; `cancel` stops listening. */
function inputArrived(session: AgentSession): { arrived: Promise<void>; cancel: () => void } {
  let off: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    if (session.agent.hasPendingInput) return resolve();
    off = session.agent.onPendingInput(() => {
      off();
      resolve();
    });
  });
  return { arrived, cancel: () => off() };
}

/** How often a session waiting on its background work checks that there is still some. */
const PENDING_WORK_CHECK_MS = 1_000;

/** Resolves when input arrives, or when the session has nothing left that could send any. */
function inputOrIdle(session: AgentSession): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (session.hasPendingWork?.()) return;
      done();
    }, PENDING_WORK_CHECK_MS);
    const off = session.agent.onPendingInput(() => done());
    const done = () => {
      clearInterval(timer);
      off();
      resolve();
    };
    if (session.agent.hasPendingInput) done();
  });
}

/** `--output-format json` prints one result for the whole run, whatever ran after the prompt. */
interface JsonRun {
  tally: RunTally;
  started: number;
}

async function runOnePrompt(
  session: AgentSession,
  start: () => AsyncGenerator<AgentEvent, RunOutcome, undefined>,
  options: PrintOptions,
  line: (record: Record<string, unknown>) => void,
  run: { streamRecords: StreamRecords; index: number; jsonRun?: JsonRun | undefined },
): Promise<RunOutcome> {
  const { streamRecords, index, jsonRun } = run;
  const { agent } = session;
  const started = performance.now();
  const tally = jsonRun?.tally ?? new RunTally();
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
  // A call can finish while its message still streams; its lines wait for the message's own lines.
  let held: StreamRecord[] = [];
  const streamJson = (event: AgentEvent) => {
    const records = streamRecords.records(event);
    if (event.type === "tool_result") {
      held.push(...records);
      return;
    }
    for (const record of records) line(record);
    if (event.type === "assistant") {
      for (const waiting of held) line(waiting);
      held = [];
    }
  };
  let outcome: RunOutcome | undefined;
  for await (const event of start()) {
    tally.observe(event);
    if (event.type === "end") outcome = event.outcome;
    if (text) text.event(event);
    else if (options.format === "stream-json") streamJson(event);
  }
  for (const waiting of held) line(waiting);
  if (!outcome) throw new Error("the agent ended without an outcome");
  if (options.format === "stream-json")
    line(
      resultRecord({
        sessionId: agent.sessionId,
        model: agent.model,
        contextWindow: agent.modelInfo.contextWindow,
        outcome,
        durationMs: performance.now() - started,
        tally,
        index,
      }),
    );
  return outcome;
}
