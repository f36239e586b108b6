// One prompt's run through the loop: what it has spent and said so far, and the rules, read off a
// finished turn, that end it. The Agent owns the conversation; this owns one prompt's bookkeeping.

import type { AgentEvent, EndReason, RunOutcome } from "./events.ts";
import { errorMessageForUser } from "./format.ts";
import { type LoopHooks, NO_HOOKS } from "./loopHooks.ts";
import { roundUsd } from "./models.ts";
import { addUsage, type Usage, ZERO_USAGE } from "./provider.ts";
import type { TurnResult } from "./turn.ts";

export class PromptRun {
  readonly interrupt = new AbortController();
  turns = 0;
  usage: Usage = { ...ZERO_USAGE };
  /** Undefined once a turn's price is unknown. */
  costUsd: number | undefined = 0;
  lastText = "";
  /** A Stop hook sent the model back to work once; the next Stop hook run is told so. */
  stopHookActive = false;
  /** The context was compacted after the provider said it was too long; only once a prompt. */
  compactedForLength = false;

  readonly hooks: LoopHooks;
  readonly maxTurns: number;

  constructor(options: { hooks?: LoopHooks | undefined; maxTurns?: number | undefined }) {
    this.hooks = options.hooks ?? NO_HOOKS;
    this.maxTurns = options.maxTurns ?? Number.POSITIVE_INFINITY;
  }

  get signal(): AbortSignal {
    return this.interrupt.signal;
  }

  addTurnUsage(usage: Usage, cost: number | undefined): void {
    this.usage = addUsage(this.usage, usage);
    this.costUsd =
      this.costUsd === undefined || cost === undefined ? undefined : roundUsd(this.costUsd + cost);
  }

  outcome(reason: EndReason, extra: Partial<RunOutcome> = {}): RunOutcome {
    return {
      reason,
      turns: this.turns,
      text: this.lastText,
      usage: this.usage,
      costUsd: this.costUsd,
      ...extra,
    };
  }
}

/** Ends the run after a turn, whatever the model wanted: a provider error, an interrupt, a hook's stop. */
export function stopAfterTurn(turn: TurnResult, run: PromptRun): RunOutcome | undefined {
  if (turn.error) return run.outcome("error", { error: turn.error, detail: errorMessageForUser(turn.error) });
  if (turn.interrupted) return run.outcome("interrupted");
  const stopped = turn.results.find((result) => result.preventContinuation);
  if (stopped) return run.outcome("hook_stopped", { detail: stopped.stopReason ?? "continue: false" });
  return undefined;
}

/** An answer without tool calls that ended for a reason other than being done. */
export function answerCutShort(turn: TurnResult, run: PromptRun): RunOutcome | undefined {
  if (turn.stopReason === "max_tokens")
    return run.outcome("max_tokens", { detail: "the model ran out of output tokens" });
  if (turn.stopReason === "refusal")
    return run.outcome("refusal", { detail: "the model declined to answer" });
  return undefined;
}

export function* finish(outcome: RunOutcome): Generator<AgentEvent, RunOutcome> {
  yield { type: "end", outcome };
  return outcome;
}
