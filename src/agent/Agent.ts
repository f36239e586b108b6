// The query loop: a prompt goes in, the model streams, tool calls run through the governed pipeline
// while it streams, results go back in one user turn, and so on until the model stops, a limit is
// reached or the person interrupts. One Agent is one session: it keeps the conversation, the cost
// and the transcript, and serves `keel run`, the terminal UI and library users alike.
import { autoModeRuleNotice } from "../permissions/autoModeRules.ts";
import type { PermissionMode } from "../permissions/types.ts";
import { createNestedToolRunner } from "../pipeline/nestedToolUse.ts";
import type { PipelineServices } from "../pipeline/services.ts";
import { addRules, removeRules, type ToolUseContext } from "../tool/context.ts";
import type { ContentBlock, Message } from "../tool/messages.ts";
import type { Tool } from "../tool/Tool.ts";
import {
  getLoadedDeferredToolNames,
  loadedToolNamesFromMessages,
} from "../tools/tool-search/deferredTools.ts";
import {
  type CompactionOptions,
  compactWithHooks,
  DEFAULT_COMPACTION,
  estimateTokens,
  toolResultIds,
} from "./compaction.ts";
import { ContextMeter } from "./contextMeter.ts";
import { appendMessage, blocksOf, textOf } from "./conversation.ts";
import { type AgentEvent, notices, type RunOutcome } from "./events.ts";
import { type LoopHooks, NO_HOOKS } from "./loopHooks.ts";
import { costUsd, type ModelInfo, roundUsd } from "./models.ts";
import { answerCutShort, finish, PromptRun, stopAfterTurn } from "./promptRun.ts";
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
  hooks?: LoopHooks;
  transcript?: Transcript;
  compaction?: CompactionOptions | false;
  /** A saved session to continue. */
  resume?: SessionState;
  /** Set when this loop is a sub-agent (started by the Agent tool): how deep it is, and its id. */
  subagent?: { depth: number; agentId: string; main?: SubagentRuntime };
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
  readonly #contextSize = new ContextMeter();
  #priceWarned = false;
  /** Allow rules that end with the current prompt (allowUntilPromptEnds). */
  readonly #promptRules: string[] = [];
  readonly #runtime: SubagentRuntime;
  /** The permission mode after the last tool results (a change is told to the person). */
  #mode: PermissionMode;

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
        // A custom command's allowed-tools hold while the model answers it (Skill, or typed /name).
        promptRules: { allowUntilPromptEnds: (rules) => this.allowUntilPromptEnds(rules) },
      },
    };
    this.sessionId = options.context.options.sessionId;
    this.#mode = options.context.getAppState().toolPermissionContext.mode;
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
      this.#contextSize.measured(estimateTokens(this.messages), 0);
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

  /**
   * Allow rules (a custom command's `allowed-tools`) that hold, as session rules, until the prompt
   * being answered ends; given before `submit`, until the next prompt ends.
   */
  allowUntilPromptEnds(rules: readonly string[]): void {
    if (rules.length === 0) return;
    this.#promptRules.push(...rules);
    this.#context.setAppState((state) => ({
      ...state,
      toolPermissionContext: addRules(state.toolPermissionContext, "allow", "session", rules),
    }));
  }

  #dropPromptRules(): void {
    const rules = this.#promptRules.splice(0);
    if (rules.length === 0) return;
    this.#context.setAppState((state) => ({
      ...state,
      toolPermissionContext: removeRules(state.toolPermissionContext, "allow", "session", rules),
    }));
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
    this.#contextSize.measured(0, 0);
    this.#options.transcript?.append({ type: "clear", time: new Date().toISOString() });
  }

  /**
   * /clear as Claude Code does it: SessionEnd hooks (reason "clear"), a fresh conversation, then
   * SessionStart hooks (source "clear") whose context joins the next prompt. Returns their messages
   * for the person.
   */
  async clearConversation(signal: AbortSignal = new AbortController().signal): Promise<string[]> {
    const hooks = this.#options.hooks ?? NO_HOOKS;
    const ended = await hooks.sessionEnd("clear", signal);
    this.clear();
    const started = await hooks.sessionStart("clear", signal, this.#model);
    this.addContext(started.additionalContext);
    return [...ended.userMessages, ...started.userMessages];
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
    this.costUsd = roundUsd(this.costUsd + (cost ?? 0));
    this.runCostUsd = roundUsd(this.runCostUsd + (cost ?? 0));
    this.#contextSize.measured(contextTokens(usage), this.messages.length);
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
  submit(prompt: string | ContentBlock[]): AsyncGenerator<AgentEvent, RunOutcome, undefined> {
    return this.#run(prompt);
  }

  /**
   * Input that arrived while the session was idle, for whoever drives it to run once idle: a scheduled
   * prompt (run as a prompt, under the permissions in force now), else the queued messages (another
   * session's message, a background agent's report), which get a turn of their own.
   */
  takePendingInput(): { kind: "prompt"; prompt: string; label: string } | { kind: "messages" } | undefined {
    const prompt = this.#pendingPrompts.shift();
    if (prompt) return { kind: "prompt", ...prompt };
    if (this.#runtime.hasMessages) return { kind: "messages" };
    return undefined;
  }

  get hasPendingInput(): boolean {
    return this.#pendingPrompts.length > 0 || this.#runtime.hasMessages;
  }

  /** A prompt to run once the session is idle (a scheduled prompt that fired); `label` says where it came from. */
  queuePrompt(prompt: string, label: string): void {
    this.#pendingPrompts.push({ prompt, label });
    for (const listener of this.#inputListeners) listener();
  }

  /** A message for the next model request (another session's); wakes an idle session's driver. */
  queueMessage(text: string): void {
    this.#runtime.send(text);
  }

  /** Called when input arrives for the session (a queued prompt or message). */
  onPendingInput(listener: () => void): () => void {
    this.#inputListeners.add(listener);
    const off = this.#runtime.onQueued(listener);
    return () => {
      this.#inputListeners.delete(listener);
      off();
    };
  }

  /** Runs a turn for the queued messages alone (no new prompt). */
  continueWithMessages(): AsyncGenerator<AgentEvent, RunOutcome, undefined> {
    return this.#run(undefined);
  }

  readonly #pendingPrompts: Array<{ prompt: string; label: string }> = [];
  readonly #inputListeners = new Set<() => void>();

  async *#run(
    prompt: string | ContentBlock[] | undefined,
  ): AsyncGenerator<AgentEvent, RunOutcome, undefined> {
    if (this.#interrupt) throw new Error("The agent is already working on a prompt.");
    const run = new PromptRun(this.#options);
    this.#interrupt = run.interrupt;
    try {
      const blocked = prompt === undefined ? undefined : yield* this.#acceptPrompt(prompt, run);
      if (blocked) return yield* finish(blocked);
      for (;;) {
        if (run.turns >= run.maxTurns)
          return yield* finish(
            run.outcome("max_turns", { detail: `Reached maximum number of turns (${run.maxTurns})` }),
          );
        const turn = yield* this.#takeTurn(run);
        if (yield* this.#compactedForLength(turn, run)) continue;
        const stopped = stopAfterTurn(turn, run) ?? (yield* this.#overBudget(run));
        if (stopped) return yield* finish(stopped);
        // Tools ran: the model sees their results in the next turn.
        if (turn.results.length > 0) continue;
        const cutShort = answerCutShort(turn, run);
        if (cutShort) return yield* finish(cutShort);
        // A message sent while the model was answering (SendMessage, a background agent's report) gets a turn.
        if (this.#runtime.hasMessages) continue;
        if (yield* this.#stopHooksSendBack(run)) continue;
        return yield* finish(run.outcome("completed"));
      }
    } finally {
      this.#interrupt = undefined;
      this.#dropPromptRules();
    }
  }

  /** UserPromptSubmit hooks see the prompt first: they may refuse it, or add context that joins it. */
  async *#acceptPrompt(
    prompt: string | ContentBlock[],
    run: PromptRun,
  ): AsyncGenerator<AgentEvent, RunOutcome | undefined, undefined> {
    const blocks = blocksOf(prompt);
    const submitted = await run.hooks.userPromptSubmit(textOf(blocks), run.signal);
    yield* notices(submitted.userMessages);
    if (submitted.block) return run.outcome("prompt_blocked", { detail: submitted.block });
    const context = submitted.additionalContext.map((text): ContentBlock => ({ type: "text", text }));
    this.#append({ role: "user", content: [...blocks, ...context] });
    return undefined;
  }

  /** One model call with its tool calls: queued messages join, the context is compacted if near full. */
  async *#takeTurn(run: PromptRun): AsyncGenerator<AgentEvent, TurnResult, undefined> {
    this.#deliverMessages();
    yield* this.#autoCompact(run.signal, run.hooks);
    run.turns++;
    const turn: TurnResult = yield* runTurn({
      provider: this.#options.provider,
      request: await this.#request(),
      context: { ...this.#context, messages: [...this.messages] },
      services: this.#options.services ?? {},
      retry: this.#options.retry ?? DEFAULT_RETRY_POLICY,
      interrupt: run.signal,
      turn: run.turns,
      onMessageComplete: (content) => this.#runtime.messageComplete(content),
    });
    this.#context = { ...turn.context, messages: [] };
    const turnCost = turn.usage ? this.#account(turn.usage) : undefined;
    if (turn.usage) run.addTurnUsage(turn.usage, turnCost);
    if (turn.content.length > 0) {
      const message: Message = { role: "assistant", content: turn.content };
      this.#append(message);
      run.lastText = textOf(turn.content) || run.lastText;
      const usage = turn.usage ?? ZERO_USAGE;
      yield {
        type: "assistant",
        message,
        ...(turn.messageId ? { messageId: turn.messageId } : {}),
        model: turn.model,
        stopReason: turn.stopReason,
        usage,
        costUsd: turnCost,
      };
    }
    if (turn.results.length > 0) yield* this.#returnResults(turn);
    return turn;
  }

  /** The context outgrew the window before the estimate said so: compact once, and the turn is taken again. */
  async *#compactedForLength(
    turn: TurnResult,
    run: PromptRun,
  ): AsyncGenerator<AgentEvent, boolean, undefined> {
    if (
      turn.error?.code !== "context_too_long" ||
      run.compactedForLength ||
      this.#options.compaction === false
    )
      return false;
    run.compactedForLength = true;
    run.turns--;
    return yield* this.compact({ trigger: "auto", signal: run.signal, hooks: run.hooks });
  }

  /** --max-budget-usd: spent at least the budget ends the run (an unknown price is warned about once). */
  async *#overBudget(run: PromptRun): AsyncGenerator<AgentEvent, RunOutcome | undefined, undefined> {
    const budget = this.#options.maxBudgetUsd;
    if (budget === undefined) return undefined;
    if (!this.#info.pricing && !this.#priceWarned) {
      this.#priceWarned = true;
      const text = `The price of model ${this.#model} is unknown, so --max-budget-usd cannot be enforced.`;
      yield { type: "notice", level: "warning", text };
    }
    if (this.runCostUsd < budget) return undefined;
    return run.outcome("budget", { detail: `spent $${this.runCostUsd.toFixed(4)} of the $${budget} budget` });
  }

  /** Stop hooks may send the model back to work with feedback (true), unless one stops the session. */
  async *#stopHooksSendBack(run: PromptRun): AsyncGenerator<AgentEvent, boolean, undefined> {
    const stop = await run.hooks.stop(run.stopHookActive, run.signal, run.lastText);
    yield* notices(stop.userMessages);
    if (!stop.block || stop.stop) return false;
    run.stopHookActive = true;
    this.#append({ role: "user", content: [{ type: "text", text: `Stop hook feedback: ${stop.block}` }] });
    return true;
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
    const modeNotice = this.#modeChangeNotice();
    if (modeNotice) yield { type: "notice", level: "info", text: modeNotice };
    const added = this.loadTools([
      ...turn.results.flatMap(loadedToolNames),
      ...getLoadedDeferredToolNames(this.#context),
    ]);
    if (added.length > 0) yield { type: "notice", level: "info", text: `Loaded tools: ${added.join(", ")}` };
  }

  /** A tool changed the mode (plan mode's tools): entering or leaving auto mode sets allow rules aside or back. */
  #modeChangeNotice(): string | undefined {
    const policy = this.#context.getAppState().toolPermissionContext;
    const before = this.#mode;
    this.#mode = policy.mode;
    return autoModeRuleNotice(before, policy.mode, policy);
  }

  async *#autoCompact(signal: AbortSignal, hooks: LoopHooks): AsyncGenerator<AgentEvent, void, undefined> {
    const options = this.#options.compaction ?? DEFAULT_COMPACTION;
    if (options === false) return;
    if (this.#contextSize.estimate(this.messages) < this.#info.contextWindow * options.thresholdRatio) return;
    yield* this.compact({ trigger: "auto", signal, hooks });
  }

  /** Summarizes the older turns. `/compact [instructions]` calls this with trigger "manual". */
  async *compact(
    args: {
      trigger?: "auto" | "manual";
      instructions?: string;
      signal?: AbortSignal;
      hooks?: LoopHooks;
    } = {},
  ): AsyncGenerator<AgentEvent, boolean, undefined> {
    const trigger = args.trigger ?? "manual";
    const signal = args.signal ?? new AbortController().signal;
    const hooks = args.hooks ?? this.#options.hooks ?? NO_HOOKS;
    const result = yield* compactWithHooks({
      trigger,
      instructions: args.instructions,
      signal,
      hooks,
      provider: this.#options.provider,
      model: this.#model,
      info: this.#info,
      messages: this.messages,
      options: this.#options.compaction || DEFAULT_COMPACTION,
    });
    if (!result) return false;
    this.messages.splice(0, this.messages.length, ...result.messages);
    // Reads whose results were summarized away are forgotten: the next Read shows the file again.
    this.#context.readFileState.forgetReadsNotShown(toolResultIds(this.messages));
    this.#contextSize.measured(estimateTokens(this.messages), this.messages.length);
    this.#options.transcript?.append({
      type: "compact",
      summary: result.summary,
      kept: result.kept,
      time: new Date().toISOString(),
    });
    yield { type: "compacted", trigger, summarizedMessages: result.summarized, keptMessages: result.kept };
    // The session goes on from a summary: SessionStart hooks (source "compact") may give context again.
    if (!this.#options.subagent) {
      const started = await hooks.sessionStart("compact", signal, this.#model);
      yield* notices(started.userMessages);
      this.addContext(started.additionalContext);
    }
    return true;
  }
}
