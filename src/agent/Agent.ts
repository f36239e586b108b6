// The query loop: a prompt goes in, the model streams, tool calls run through the governed pipeline
// while it streams, results go back in one user turn, and so on until the model stops, a limit is
// reached or the person interrupts. One Agent is one session: it keeps the conversation, the cost
// and the transcript, and serves `keel run`, the terminal UI and library users alike.
import { createNestedToolRunner } from "../pipeline/nestedToolUse.ts";
import type { PipelineServices } from "../pipeline/services.ts";
import type { ToolUseContext } from "../tool/context.ts";
import type { ContentBlock, Message } from "../tool/messages.ts";
import type { Tool } from "../tool/Tool.ts";
import {
  getLoadedDeferredToolNames,
  loadedToolNamesFromMessages,
} from "../tools/tool-search/deferredTools.ts";
import { type AgentHooks, NO_HOOKS } from "./agentHooks.ts";
import {
  type CompactionOptions,
  compactConversation,
  DEFAULT_COMPACTION,
  estimateTokens,
} from "./compaction.ts";
import { appendMessage, blocksOf, textOf } from "./conversation.ts";
import type { AgentEvent, EndReason, RunOutcome } from "./events.ts";
import { errorMessageForUser } from "./format.ts";
import { costUsd, type ModelInfo } from "./models.ts";
import {
  addUsage,
  contextTokens,
  type ModelProvider,
  type ModelRequest,
  type SystemPart,
  type Usage,
  ZERO_USAGE,
} from "./provider.ts";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry.ts";
import { SubagentRuntime } from "./subagentRuntime.ts";
import { loadedToolNames, ToolPool } from "./toolPool.ts";
import type { SessionState, Transcript } from "./transcript.ts";
import { runTurn, type TurnResult } from "./turn.ts";

export interface AgentOptions {
  provider: ModelProvider;
  model: string;
  modelInfo: ModelInfo;
  /** The session's tool pool, deferred tools included. */
  tools: readonly Tool[];
  context: ToolUseContext;
  services?: PipelineServices;
  /** The system prompt, or how to build it from the pool (computed once per conversation). */
  system: SystemPart[] | ((pool: ToolPool) => Promise<SystemPart[]>);
  maxTurns?: number;
  maxBudgetUsd?: number;
  maxOutputTokens?: number;
  thinkingBudget?: number;
  retry?: RetryPolicy;
  hooks?: AgentHooks;
  transcript?: Transcript;
  compaction?: CompactionOptions | false;
  /** A saved session to continue. */
  resume?: SessionState;
  /** Set when this loop is a sub-agent (started by the Agent tool): how deep it is, and its id. */
  subagent?: { depth: number; agentId: string };
}

export class Agent {
  readonly sessionId: string;
  readonly messages: Message[] = [];
  readonly pool: ToolPool;
  /** Everything this session spent, resumed sessions included. */
  usage: Usage = { ...ZERO_USAGE };
  costUsd = 0;
  /** Spent since this Agent started (what --max-budget-usd limits). */
  runCostUsd = 0;
  readonly #options: AgentOptions;
  #context: ToolUseContext;
  #model: string;
  #info: ModelInfo;
  #system: SystemPart[] | undefined;
  #interrupt: AbortController | undefined;
  #lastContextTokens = 0;
  #messagesAtLastUsage = 0;
  #priceWarned = false;
  readonly #runtime: SubagentRuntime;

  constructor(options: AgentOptions) {
    this.#options = options;
    // The Agent tool finds the loop through the context to start sub-agents (src/agent/subagentRuntime.ts).
    this.#runtime = new SubagentRuntime(this, options, (child) => new Agent(child));
    this.#context = {
      ...options.context,
      options: {
        ...options.context.options,
        tools: options.tools,
        agentRuntime: this.#runtime,
        // Custom commands' `!` lines and @file includes run through the pipeline with this loop's services.
        runNestedTool: createNestedToolRunner(options.services ?? {}),
      },
    };
    this.sessionId = options.context.options.sessionId;
    this.#model = options.model;
    this.#info = options.modelInfo;
    this.pool = new ToolPool(options.tools, [
      ...(options.resume?.loadedTools ?? []),
      ...(options.resume ? loadedToolNamesFromMessages(options.resume.messages) : []),
    ]);
    if (options.resume) {
      this.messages.push(...options.resume.messages);
      this.usage = options.resume.usage;
      this.costUsd = options.resume.costUsd;
      this.#messagesAtLastUsage = 0;
      this.#lastContextTokens = estimateTokens(this.messages);
    } else {
      options.transcript?.append({
        type: "session",
        sessionId: this.sessionId,
        cwd: options.context.getAppState().cwd,
        provider: options.provider.name,
        model: options.model,
        version: 1,
        time: new Date().toISOString(),
      });
    }
  }

  get model(): string {
    return this.#model;
  }

  get modelInfo(): ModelInfo {
    return this.#info;
  }

  get context(): ToolUseContext {
    return this.#context;
  }

  /** The system prompt as sent, once the first request was built (forks reuse it byte for byte). */
  get systemPrompt(): readonly SystemPart[] | undefined {
    return this.#system;
  }

  get running(): boolean {
    return this.#interrupt !== undefined;
  }

  setModel(model: string, info: ModelInfo): void {
    this.#model = model;
    this.#info = info;
  }

  /** Ctrl-C: the stream stops; tools that can be cancelled stop, the others finish. */
  interrupt(): void {
    this.#interrupt?.abort(new Error("Interrupted by the user"));
  }

  /** /clear: a fresh conversation in the same session (the transcript records the cut). */
  clear(): void {
    this.messages.length = 0;
    // Read's "unchanged since last read" would point the new conversation at content it never saw.
    this.#context.readFileState.clear();
    this.#system = undefined;
    this.#lastContextTokens = 0;
    this.#messagesAtLastUsage = 0;
    this.#options.transcript?.append({ type: "clear", time: new Date().toISOString() });
  }

  /** Context for the model ahead of the next prompt (SessionStart hooks); joins that prompt's turn. */
  addContext(texts: readonly string[]): void {
    if (texts.length === 0) return;
    this.#append({ role: "user", content: texts.map((text) => ({ type: "text" as const, text })) });
  }

  loadTools(names: Iterable<string>): string[] {
    const added = this.pool.load(names);
    if (added.length > 0)
      this.#options.transcript?.append({
        type: "tools_loaded",
        names: added,
        time: new Date().toISOString(),
      });
    return added;
  }

  #append(message: Message): void {
    appendMessage(this.messages, message);
    this.#options.transcript?.message(message);
  }

  async #request(): Promise<ModelRequest> {
    if (!this.#system) {
      const system = this.#options.system;
      this.#system = typeof system === "function" ? await system(this.pool) : system;
    }
    return {
      model: this.#model,
      system: this.#system,
      messages: [...this.messages],
      tools: await this.pool.specs(),
      maxTokens: this.#options.maxOutputTokens ?? Math.min(this.#info.maxOutputTokens, 32_000),
      ...(this.#options.thinkingBudget ? { thinkingBudget: this.#options.thinkingBudget } : {}),
    };
  }

  #account(usage: Usage): number | undefined {
    this.usage = addUsage(this.usage, usage);
    const cost = costUsd(usage, this.#info.pricing);
    this.costUsd += cost ?? 0;
    this.runCostUsd += cost ?? 0;
    this.#lastContextTokens = contextTokens(usage);
    this.#messagesAtLastUsage = this.messages.length;
    this.#options.transcript?.append({
      type: "usage",
      usage,
      costUsd: cost ?? null,
      model: this.#model,
      time: new Date().toISOString(),
    });
    return cost;
  }

  /** Runs one prompt to the end. Yields what happens; returns (and yields as `end`) the outcome. */
  async *submit(prompt: string | ContentBlock[]): AsyncGenerator<AgentEvent, RunOutcome, undefined> {
    if (this.#interrupt) throw new Error("The agent is already working on a prompt.");
    const interrupt = new AbortController();
    this.#interrupt = interrupt;
    const hooks = this.#options.hooks ?? NO_HOOKS;
    const maxTurns = this.#options.maxTurns ?? Number.POSITIVE_INFINITY;
    let usage: Usage = { ...ZERO_USAGE };
    let cost: number | undefined = 0;
    let turns = 0;
    let lastText = "";
    const outcome = (reason: EndReason, extra: Partial<RunOutcome> = {}): RunOutcome => ({
      reason,
      turns,
      text: lastText,
      usage,
      costUsd: cost,
      ...extra,
    });
    try {
      const blocks = blocksOf(prompt);
      const submitted = await hooks.userPromptSubmit(textOf(blocks), interrupt.signal);
      yield* notices(submitted.userMessages);
      if (submitted.block) {
        const done = outcome("prompt_blocked", { detail: submitted.block });
        yield { type: "end", outcome: done };
        return done;
      }
      const context = submitted.additionalContext.map((text): ContentBlock => ({ type: "text", text }));
      this.#append({ role: "user", content: [...blocks, ...context] });
      let stopHookActive = false;
      let compactedForLength = false;
      for (;;) {
        if (turns >= maxTurns)
          return yield* finish(
            outcome("max_turns", { detail: `stopped after ${turns} turns (--max-turns)` }),
          );
        this.#deliverMessages();
        yield* this.#autoCompact(interrupt.signal, hooks);
        turns++;
        const turn: TurnResult = yield* runTurn({
          provider: this.#options.provider,
          request: await this.#request(),
          context: { ...this.#context, messages: [...this.messages] },
          services: this.#options.services ?? {},
          retry: this.#options.retry ?? DEFAULT_RETRY_POLICY,
          interrupt: interrupt.signal,
          turn: turns,
          onMessageComplete: (content) => this.#runtime.messageComplete(content),
        });
        this.#context = { ...turn.context, messages: [] };
        let turnCost: number | undefined;
        if (turn.usage) {
          turnCost = this.#account(turn.usage);
          usage = addUsage(usage, turn.usage);
          cost = cost === undefined || turnCost === undefined ? undefined : cost + turnCost;
        }
        if (turn.content.length > 0) {
          const message: Message = { role: "assistant", content: turn.content };
          this.#append(message);
          lastText = textOf(turn.content) || lastText;
          yield {
            type: "assistant",
            message,
            stopReason: turn.stopReason,
            usage: turn.usage ?? ZERO_USAGE,
            costUsd: turnCost,
          };
        }
        if (turn.results.length > 0) yield* this.#returnResults(turn);
        // The context outgrew the window before the estimate said so: compact once and try again.
        if (
          turn.error?.code === "context_too_long" &&
          !compactedForLength &&
          this.#options.compaction !== false
        ) {
          compactedForLength = true;
          turns--;
          if (yield* this.compact({ trigger: "auto", signal: interrupt.signal, hooks })) continue;
        }
        if (turn.error)
          return yield* finish(
            outcome("error", { error: turn.error, detail: errorMessageForUser(turn.error) }),
          );
        if (turn.interrupted) return yield* finish(outcome("interrupted"));
        const stopped = turn.results.find((result) => result.preventContinuation);
        if (stopped)
          return yield* finish(outcome("hook_stopped", { detail: stopped.stopReason ?? "continue: false" }));
        const budget = this.#options.maxBudgetUsd;
        if (budget !== undefined) {
          if (!this.#info.pricing && !this.#priceWarned) {
            this.#priceWarned = true;
            yield {
              type: "notice",
              level: "warning",
              text: `The price of model ${this.#model} is unknown, so --max-budget-usd cannot be enforced.`,
            };
          }
          if (this.runCostUsd >= budget)
            return yield* finish(
              outcome("budget", { detail: `spent $${this.runCostUsd.toFixed(4)} of the $${budget} budget` }),
            );
        }
        if (turn.results.length > 0) continue;
        if (turn.stopReason === "max_tokens")
          return yield* finish(outcome("max_tokens", { detail: "the model ran out of output tokens" }));
        if (turn.stopReason === "refusal")
          return yield* finish(outcome("refusal", { detail: "the model declined to answer" }));
        // A message sent while the model was answering (SendMessage, a background agent's report) gets a turn.
        if (this.#runtime.hasMessages) continue;
        const stop = await hooks.stop(stopHookActive, interrupt.signal, lastText);
        yield* notices(stop.userMessages);
        if (stop.block && !stop.stop) {
          stopHookActive = true;
          this.#append({
            role: "user",
            content: [{ type: "text", text: `Stop hook feedback: ${stop.block}` }],
          });
          continue;
        }
        return yield* finish(outcome("completed"));
      }
    } finally {
      this.#interrupt = undefined;
    }
  }

  /** Messages queued for this loop (SendMessage, background agents' reports) join the next request. */
  #deliverMessages(): void {
    const queued = this.#runtime.takeMessages();
    if (queued.length > 0)
      this.#append({ role: "user", content: queued.map((text): ContentBlock => ({ type: "text", text })) });
  }

  async *#returnResults(turn: TurnResult): AsyncGenerator<AgentEvent, void, undefined> {
    const content: ContentBlock[] = turn.results.map((result) => result.block);
    for (const result of turn.results) {
      for (const text of result.additionalContext) content.push({ type: "text", text });
      yield* notices(result.userMessages);
    }
    const message: Message = { role: "user", content };
    this.#append(message);
    yield { type: "user", message };
    this.pool.adopt(this.#context.options.tools);
    const added = this.loadTools([
      ...turn.results.flatMap(loadedToolNames),
      ...getLoadedDeferredToolNames(this.#context),
    ]);
    if (added.length > 0) yield { type: "notice", level: "info", text: `Loaded tools: ${added.join(", ")}` };
  }

  #contextEstimate(): number {
    return this.#lastContextTokens + estimateTokens(this.messages.slice(this.#messagesAtLastUsage));
  }

  async *#autoCompact(signal: AbortSignal, hooks: AgentHooks): AsyncGenerator<AgentEvent, void, undefined> {
    const options = this.#options.compaction ?? DEFAULT_COMPACTION;
    if (options === false) return;
    if (this.#contextEstimate() < this.#info.contextWindow * options.thresholdRatio) return;
    yield* this.compact({ trigger: "auto", signal, hooks });
  }

  /** Summarizes the older turns. `/compact [instructions]` calls this with trigger "manual". */
  async *compact(
    args: {
      trigger?: "auto" | "manual";
      instructions?: string;
      signal?: AbortSignal;
      hooks?: AgentHooks;
    } = {},
  ): AsyncGenerator<AgentEvent, boolean, undefined> {
    const trigger = args.trigger ?? "manual";
    const signal = args.signal ?? new AbortController().signal;
    const options = this.#options.compaction || DEFAULT_COMPACTION;
    const pre = await (args.hooks ?? this.#options.hooks ?? NO_HOOKS).preCompact(
      trigger,
      args.instructions,
      signal,
    );
    yield* notices(pre.userMessages);
    if (pre.block) {
      yield {
        type: "notice",
        level: "warning",
        text: `Compaction skipped: a PreCompact hook blocked it (${pre.block}).`,
      };
      return false;
    }
    try {
      const result = await compactConversation({
        provider: this.#options.provider,
        model: this.#model,
        messages: this.messages,
        keepTokens: this.#info.contextWindow * options.keepRecentRatio,
        maxTokens: Math.min(this.#info.maxOutputTokens, 8_000),
        ...(args.instructions ? { instructions: args.instructions } : {}),
        signal,
      });
      if (!result) {
        yield { type: "notice", level: "info", text: "Nothing to compact yet." };
        return false;
      }
      this.messages.splice(0, this.messages.length, ...result.messages);
      this.#context.readFileState.forgetReadsNotShown(toolResultIds(this.messages));
      this.#lastContextTokens = estimateTokens(this.messages);
      this.#messagesAtLastUsage = this.messages.length;
      this.#options.transcript?.append({
        type: "compact",
        summary: result.summary,
        kept: result.kept,
        time: new Date().toISOString(),
      });
      yield { type: "compacted", trigger, summarizedMessages: result.summarized, keptMessages: result.kept };
      return true;
    } catch (error) {
      yield { type: "notice", level: "warning", text: `Compaction failed: ${errorMessageForUser(error)}` };
      return false;
    }
  }
}

/** The tool calls whose results the model still has. */
function toolResultIds(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) if (block.type === "tool_result") ids.add(block.tool_use_id);
  }
  return ids;
}

function* notices(messages: readonly string[]): Generator<AgentEvent> {
  for (const text of messages) yield { type: "notice", level: "info", text };
}

function* finish(outcome: RunOutcome): Generator<AgentEvent, RunOutcome> {
  yield { type: "end", outcome };
  return outcome;
}
