// Starts tool calls while the model is still streaming: each call is added as soon as its input is
// complete and starts as soon as it may (safe calls together, an unsafe one alone, in arrival order).
// Results come out in call order. The executor can be discarded, and honours interruptBehavior.
import type { ToolUseContext } from "../tool/context.ts";
import type { ToolUseBlock } from "../tool/messages.ts";
import {
  DEFAULT_MAX_CONCURRENCY,
  isConcurrencySafeCall,
  linkedController,
  prepareCall,
  resolveCall,
  runOneCall,
  siblingCancellation,
} from "./callRunner.ts";
import type { PipelineEvent, ResultEvent } from "./runToolUse.ts";
import type { PipelineServices } from "./services.ts";

type Status = "queued" | "executing" | "completed" | "yielded";

interface Entry {
  call: ToolUseBlock;
  /** Undefined until the call's tool is prepared (Tool.prepare): it then waits, and so does every later call. */
  safe: boolean | undefined;
  cancelOnInterrupt: boolean;
  status: Status;
  controller?: AbortController;
  result?: ResultEvent;
}

export interface StreamingToolExecutorOptions {
  maxConcurrency?: number;
}

export class StreamingToolExecutor {
  readonly #entries: Entry[] = [];
  readonly #services: PipelineServices;
  readonly #maxConcurrency: number;
  readonly #siblings = new AbortController();
  readonly #discarded = new AbortController();
  #context: ToolUseContext;
  #applied = 0;
  #wake: (() => void) | undefined;
  /** Bumped on every change, so a wait never misses one that happened while the consumer was busy. */
  #version = 0;

  constructor(
    context: ToolUseContext,
    services: PipelineServices = {},
    options: StreamingToolExecutorOptions = {},
  ) {
    this.#context = context;
    this.#services = services;
    this.#maxConcurrency = Math.max(1, options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
  }

  /** The context after the context changes of every call completed so far, in call order. */
  get context(): ToolUseContext {
    return this.#context;
  }

  /** Adds a call whose input is complete; it starts now if it may. */
  addTool(call: ToolUseBlock): void {
    const tools = this.#context.options.tools;
    const resolved = resolveCall(call, tools);
    const entry: Entry = {
      call,
      safe: undefined,
      cancelOnInterrupt: resolved ? resolved.tool.interruptBehavior() === "cancel" : true,
      status: "queued",
    };
    this.#entries.push(entry);
    void prepareCall(call, tools).then(() => {
      entry.safe = isConcurrencySafeCall(call, tools);
      this.#startWhatMay();
    });
  }

  /** Results ready now, in call order (plus progress so far); never waits. */
  *getCompletedResults(): Generator<PipelineEvent, void, undefined> {
    yield* this.#drainProgress();
    for (const entry of this.#entries) {
      if (entry.status === "yielded") continue;
      if (entry.status !== "completed") return;
      entry.status = "yielded";
      yield entry.result!;
    }
  }

  /** After the message ended: every remaining result, in call order, waiting as needed. */
  async *getRemainingResults(): AsyncGenerator<PipelineEvent, void, undefined> {
    for (;;) {
      const seen = this.#version;
      yield* this.getCompletedResults();
      if (this.#entries.every((entry) => entry.status === "yielded")) return;
      if (seen !== this.#version) continue;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  /** Drops everything: running calls are aborted and their results discarded (e.g. a retried request). */
  discard(): void {
    this.#discarded.abort(new Error("Discarded: the response that requested this call was abandoned"));
    for (const entry of this.#entries) entry.status = "yielded";
    this.#wakeUp();
  }

  /** A user interrupt: calls that can be cancelled stop; calls that block finish. */
  interrupt(): void {
    const reason = new Error("Interrupted by the user");
    for (const entry of this.#entries) {
      if (!entry.cancelOnInterrupt) continue;
      if (entry.status === "executing") entry.controller?.abort(reason);
      if (entry.status === "queued") {
        entry.controller = new AbortController();
        entry.controller.abort(reason);
      }
    }
    this.#startWhatMay();
  }

  #progress: PipelineEvent[] = [];

  *#drainProgress(): Generator<PipelineEvent, void, undefined> {
    const pending = this.#progress;
    this.#progress = [];
    yield* pending;
  }

  #canStart(entry: Entry): boolean {
    if (entry.safe === undefined) return false;
    const executing = this.#entries.filter((e) => e.status === "executing");
    if (executing.length >= this.#maxConcurrency) return false;
    if (executing.length === 0) return true;
    return entry.safe && executing.every((e) => e.safe);
  }

  #startWhatMay(): void {
    if (this.#discarded.signal.aborted) return;
    for (const entry of this.#entries) {
      if (entry.status !== "queued") continue;
      // Keep arrival order: nothing overtakes a call that has to wait.
      if (!this.#canStart(entry)) break;
      this.#start(entry);
    }
  }

  #start(entry: Entry): void {
    entry.status = "executing";
    const preAborted = entry.controller?.signal;
    const signals = [this.#context.abortController.signal, this.#siblings.signal, this.#discarded.signal];
    if (preAborted) signals.push(preAborted);
    const { controller, dispose } = linkedController(...signals);
    entry.controller = controller;
    const context = { ...this.#context, abortController: controller };
    void runOneCall(entry.call, context, this.#services, (event) => {
      this.#progress.push(event);
      this.#wakeUp();
    }).then((result) => {
      dispose();
      if (this.#discarded.signal.aborted) return;
      entry.result = result;
      entry.status = "completed";
      if (result.isError && result.errorCode !== "aborted" && !this.#siblings.signal.aborted) {
        const reason = siblingCancellation(entry.call, this.#context.options.tools);
        if (reason) this.#siblings.abort(reason);
      }
      this.#applyContextChanges();
      this.#startWhatMay();
      this.#wakeUp();
    });
  }

  #applyContextChanges(): void {
    while (this.#applied < this.#entries.length) {
      const entry = this.#entries[this.#applied]!;
      if (entry.status !== "completed" && entry.status !== "yielded") return;
      const modifier = entry.result?.contextModifier;
      if (modifier) {
        try {
          this.#context = modifier(this.#context);
        } catch {
          // A failing context change leaves the context as it was.
        }
      }
      this.#applied++;
    }
  }

  #wakeUp(): void {
    this.#version++;
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
