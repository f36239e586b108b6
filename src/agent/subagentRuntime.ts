// Sub-agents are the same loop started from inside a tool call. Each Agent owns one runtime and puts it
// in its tool context (options.agentRuntime); the Agent tool asks it for child loops, which share the
// provider, the pipeline services and the session, and report their spending to this loop.
import { dirname, join } from "node:path";
import { runSubagentStartHooks, runSubagentStopHooks } from "../hooks/events.ts";
import { HookRunner, sessionFromContext } from "../hooks/runner.ts";
import type { PipelineServices } from "../pipeline/services.ts";
import { userHomeDir } from "../settings/locations.ts";
import type { ContentBlock, Message } from "../tool/messages.ts";
import {
  AGENT_RUNTIME,
  type AgentRuntime,
  agentRuntimeOf,
  type RemoteHost,
  type SubagentInstructions,
  type SubagentLoop,
  type SubagentLoopSpec,
  type SubagentStartAnswer,
} from "../tools/agent/runtime.ts";
import type { Agent, AgentOptions } from "./Agent.ts";
import { resolveModelAlias } from "./config.ts";
import { environmentFacts, formatEnvironment } from "./environment.ts";
import type { AgentEvent, RunOutcome } from "./events.ts";
import { type LoopHooks, NO_HOOKS } from "./loopHooks.ts";
import { formatMemory, loadMemoryFiles } from "./memory.ts";
import { modelInfo, roundUsd } from "./models.ts";
import { addUsage, type SystemPart, type Usage, ZERO_USAGE } from "./provider.ts";
import { deferredToolsSection } from "./systemPrompt.ts";
import type { ToolPool } from "./toolPool.ts";
import { Transcript } from "./transcript.ts";

/** What the runtime reads of the loop that owns it. */
export interface RuntimeHost {
  readonly pool: ToolPool;
  readonly model: string;
  readonly modelInfo: Agent["modelInfo"];
  readonly systemPrompt: readonly SystemPart[] | undefined;
  usage: Usage;
  costUsd: number;
  runCostUsd: number;
}

export class SubagentRuntime implements AgentRuntime {
  readonly [AGENT_RUNTIME] = true as const;
  readonly depth: number;
  readonly #host: RuntimeHost;
  readonly #options: AgentOptions;
  readonly #spawn: (options: AgentOptions) => Agent;
  readonly #inbox: string[] = [];
  #lastMessage: ContentBlock[] = [];
  readonly #waiters = new Set<() => void>();

  constructor(host: RuntimeHost, options: AgentOptions, spawn: (options: AgentOptions) => Agent) {
    this.#host = host;
    this.#options = options;
    this.#spawn = spawn;
    this.depth = options.subagent?.depth ?? 0;
    this.main = options.subagent?.main ?? this;
  }

  /** The session's main loop's runtime (SendMessage to "main" queues there). */
  readonly main: SubagentRuntime;

  sendToMain(message: string): void {
    this.main.send(message);
  }

  get model(): string {
    return this.#host.model;
  }

  get tools() {
    return this.#host.pool.all;
  }

  get loadedTools(): readonly string[] {
    return this.#host.pool.loadedNames;
  }

  send(message: string): void {
    this.#inbox.push(message);
    for (const listener of this.#queued) listener();
  }

  readonly #queued = new Set<() => void>();

  /** Called whenever a message is queued (an idle session starts a turn for it). */
  onQueued(listener: () => void): () => void {
    this.#queued.add(listener);
    return () => this.#queued.delete(listener);
  }

  get remoteHost(): RemoteHost {
    const services = this.#options.services ?? {};
    return {
      ...(services.prompter ? { prompter: services.prompter } : {}),
      ...(services.audit ? { audit: services.audit } : {}),
      provider: { name: this.#options.provider.name, baseURL: this.#options.provider.baseURL },
    };
  }

  get hasMessages(): boolean {
    return this.#inbox.length > 0;
  }

  /** The loop takes what was queued right before its next model request. */
  takeMessages(): string[] {
    return this.#inbox.splice(0);
  }

  /** The loop reports each finished assistant message, before its tool calls are done. */
  messageComplete(content: ContentBlock[]): void {
    this.#lastMessage = content;
    for (const wake of this.#waiters) wake();
  }

  assistantMessage(toolUseId: string, signal: AbortSignal): Promise<ContentBlock[]> {
    const holds = () =>
      this.#lastMessage.some((block) => block.type === "tool_use" && block.id === toolUseId);
    return new Promise((resolve, reject) => {
      const done = () => {
        this.#waiters.delete(check);
        signal.removeEventListener("abort", onAbort);
      };
      const check = () => {
        if (!holds()) return;
        done();
        resolve(structuredClone(this.#lastMessage));
      };
      const onAbort = () => {
        done();
        reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
      };
      if (signal.aborted) return onAbort();
      this.#waiters.add(check);
      signal.addEventListener("abort", onAbort, { once: true });
      check();
    });
  }

  #hookRunner(): HookRunner | undefined {
    const hooks = this.#options.services?.hooks;
    return hooks instanceof HookRunner ? hooks : undefined;
  }

  async subagentStart(args: Parameters<AgentRuntime["subagentStart"]>[0]): Promise<SubagentStartAnswer> {
    const runner = this.#hookRunner();
    if (!runner?.hasHooks("SubagentStart")) return { additionalContext: [], userMessages: [] };
    const answer = await runSubagentStartHooks(runner, {
      session: sessionFromContext(args.context),
      signal: args.signal,
      agentId: args.agentId,
      agentType: args.agentType,
    });
    return { additionalContext: answer.additionalContext, userMessages: answer.userMessages };
  }

  /** A sub-agent's own transcript, in the session's `subagents/` folder (agent_transcript_path). */
  #childTranscript(agentId: string): Transcript | undefined {
    const own = this.#options.transcript;
    if (!own) return undefined;
    const dir = this.depth > 0 ? dirname(own.path) : join(dirname(own.path), own.sessionId, "subagents");
    return new Transcript(dir, `agent-${agentId}`);
  }

  /** The child's Stop point runs SubagentStop hooks; a block keeps it working, like Stop does for the main loop. */
  #childHooks(spec: SubagentLoopSpec, transcript: Transcript | undefined): LoopHooks {
    const parent = this.#options.hooks ?? NO_HOOKS;
    const runner = this.#hookRunner();
    if (!runner) return { ...NO_HOOKS, preCompact: parent.preCompact };
    return {
      ...NO_HOOKS,
      preCompact: parent.preCompact,
      stop: async (stopHookActive, signal, lastAssistantMessage) => {
        const result = await runSubagentStopHooks(runner, {
          session: sessionFromContext(spec.context),
          signal,
          stopHookActive,
          agentId: spec.agentId,
          agentType: spec.agentType,
          ...(transcript ? { agentTranscriptPath: transcript.path } : {}),
          ...(lastAssistantMessage === undefined ? {} : { lastAssistantMessage }),
        });
        return {
          ...(result.block ? { block: result.block.reason } : {}),
          additionalContext: result.additionalContext,
          userMessages: result.userMessages,
          ...(result.preventContinuation ? { stop: result.stopReason ?? "continue: false" } : {}),
        };
      },
    };
  }

  #system(spec: SubagentLoopSpec): AgentOptions["system"] {
    if (spec.system === "inherit") {
      const inherited = this.#host.systemPrompt;
      if (!inherited)
        throw new Error("A fork needs the parent's system prompt, and no request was made yet.");
      return inherited.map((part) => ({ ...part }));
    }
    const { cwd, toolPermissionContext } = spec.context.getAppState();
    return subagentSystemPrompt(spec.system, cwd, userHomeDir(toolPermissionContext.caller.env));
  }

  /**
   * The model asked for, else this loop's. Claude Code's aliases (sonnet, opus, haiku), common in agent
   * files, name Anthropic models: behind another provider they mean "as the parent".
   */
  #childModel(requested: string | undefined): string {
    const name = requested?.trim();
    if (!name || name === "inherit") return this.#host.model;
    const resolved = resolveModelAlias(name);
    if (resolved !== name && this.#options.provider.name !== "anthropic") return this.#host.model;
    return resolved;
  }

  createLoop(spec: SubagentLoopSpec): SubagentLoop {
    const options = this.#options;
    const host = this.#host;
    const model = this.#childModel(spec.model);
    // The orchestrator's gate is held by the Agent call itself; the child's calls must not wait on it.
    const { gate: _gate, ...services }: PipelineServices = options.services ?? {};
    const budget = options.maxBudgetUsd;
    const transcript = this.#childTranscript(spec.agentId);
    const child = this.#spawn({
      provider: options.provider,
      model,
      modelInfo: model === host.model ? host.modelInfo : modelInfo(model),
      tools: spec.tools,
      context: spec.context,
      services,
      system: this.#system(spec),
      hooks: this.#childHooks(spec, transcript),
      ...(transcript ? { transcript } : {}),
      ...(spec.maxTurns !== undefined ? { maxTurns: spec.maxTurns } : {}),
      ...(budget !== undefined ? { maxBudgetUsd: Math.max(0, budget - host.runCostUsd) } : {}),
      ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
      ...(options.thinkingBudget !== undefined ? { thinkingBudget: options.thinkingBudget } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.compaction !== undefined ? { compaction: options.compaction } : {}),
      resume: {
        sessionId: spec.context.options.sessionId,
        messages: [...(spec.history ?? [])].map((message): Message => structuredClone(message)),
        usage: { ...ZERO_USAGE },
        costUsd: 0,
        loadedTools: [...(spec.loadedTools ?? [])],
      },
      subagent: { depth: this.depth + 1, agentId: spec.agentId, main: this.main },
    });
    return {
      agentId: spec.agentId,
      model,
      run: async (prompt, onEvent) => {
        const before = { usage: child.usage, cost: child.runCostUsd };
        // Aborting the child's context stops the loop too, even between its requests.
        const signal = spec.context.abortController.signal;
        if (signal.aborted) return { ...notStarted, detail: "stopped before it started" };
        const stop = () => child.interrupt();
        signal.addEventListener("abort", stop, { once: true });
        try {
          return await drain(child.submit(prompt), onEvent);
        } finally {
          signal.removeEventListener("abort", stop);
          // What the child spent (its own sub-agents included) is this loop's spending too.
          host.usage = addUsage(host.usage, subtract(child.usage, before.usage));
          host.costUsd = roundUsd(host.costUsd + child.runCostUsd - before.cost);
          host.runCostUsd = roundUsd(host.runCostUsd + child.runCostUsd - before.cost);
        }
      },
      send: (message) => agentRuntimeOf(child.context)?.send(message),
      interrupt: () => child.interrupt(),
    };
  }
}

/** A fresh sub-agent's system prompt: its instructions, deferred tools, environment, memory files, own sections. */
export function subagentSystemPrompt(
  own: SubagentInstructions,
  cwd: string,
  home: string,
): (pool: ToolPool) => Promise<SystemPart[]> {
  return async (pool) => {
    const facts = await environmentFacts(cwd);
    const sections = [
      own.instructions,
      deferredToolsSection(pool),
      formatEnvironment(facts),
      formatMemory(loadMemoryFiles(cwd, home)),
      ...(own.sections ?? []),
    ].filter((section): section is string => typeof section === "string" && section.trim() !== "");
    return sections.map((text, index) => (index === sections.length - 1 ? { text, cache: true } : { text }));
  };
}

const notStarted: RunOutcome = {
  reason: "interrupted",
  turns: 0,
  text: "",
  usage: ZERO_USAGE,
  costUsd: 0,
};

async function drain(
  run: AsyncGenerator<AgentEvent, RunOutcome, undefined>,
  onEvent: ((event: AgentEvent) => void) | undefined,
): Promise<RunOutcome> {
  for (;;) {
    const next = await run.next();
    if (next.done) return next.value;
    onEvent?.(next.value);
  }
}

function subtract(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens - b.inputTokens,
    outputTokens: a.outputTokens - b.outputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens - b.cacheCreationInputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens - b.cacheReadInputTokens,
  };
}
