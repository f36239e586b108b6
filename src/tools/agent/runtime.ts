// What the Agent tool needs from the agent loop, as an interface: the loop puts an AgentRuntime in
// ToolUseContext.options.agentRuntime (src/agent/subagentRuntime.ts), and the tool starts child loops
// through it without depending on the loop's code.
import type { AgentEvent, RunOutcome } from "../../agent/events.ts";
import type { AuditSink, Prompter } from "../../pipeline/services.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import type { ContentBlock, Message } from "../../tool/messages.ts";
import type { Tool } from "../../tool/Tool.ts";

export const AGENT_RUNTIME: unique symbol = Symbol.for("keel.agentRuntime");

/** Sub-agents may start sub-agents down to this depth (the main loop is depth 0). */
export const MAX_AGENT_DEPTH = 3;

/** A fresh sub-agent's own instructions; the runtime adds deferred tools, environment and memory files. */
export interface SubagentInstructions {
  instructions: string;
  /** Sections after the environment and memory files (the agent type's own memory). */
  sections?: readonly string[];
}

export interface SubagentLoopSpec {
  agentId: string;
  agentType: string;
  /** A model name or alias (sonnet, opus, haiku); undefined or "inherit": the parent's model. */
  model?: string;
  /** The child's pool, deferred tools included. */
  tools: readonly Tool[];
  /** The child's system prompt, or the parent's exactly as it was sent (fork). */
  system: SubagentInstructions | "inherit";
  /** Where the conversation starts (fork: the parent's conversation). */
  history?: readonly Message[];
  /** Deferred tools already loaded in the child's pool. */
  loadedTools?: readonly string[];
  /** The child's own context: its agentId, abort controller, app state and pool. */
  context: ToolUseContext;
  maxTurns?: number;
}

export interface SubagentLoop {
  readonly agentId: string;
  readonly model: string;
  /** Runs a prompt to its end; every event of the loop is passed to onEvent as it happens. */
  run(prompt: string, onEvent?: (event: AgentEvent) => void): Promise<RunOutcome>;
  /** Queues a message; the loop delivers it with its next model request. */
  send(message: string): void;
  /** Stops the stream and the calls that can be cancelled (TaskStop, Ctrl-C). */
  interrupt(): void;
}

export interface SubagentStartAnswer {
  /** Text for the sub-agent, from SubagentStart hooks. */
  additionalContext: string[];
  userMessages: string[];
}

export interface AgentRuntime {
  readonly [AGENT_RUNTIME]: true;
  /** 0 for the main loop, 1 for its sub-agents, and so on. */
  readonly depth: number;
  /** The loop's current model. */
  readonly model: string;
  /** The loop's pool (deferred tools included) and the deferred tools it has loaded. */
  readonly tools: readonly Tool[];
  readonly loadedTools: readonly string[];
  createLoop(spec: SubagentLoopSpec): SubagentLoop;
  /** The whole assistant message holding this tool call, once the model has finished it (forks copy it). */
  assistantMessage(toolUseId: string, signal: AbortSignal): Promise<ContentBlock[]>;
  /** SubagentStart hooks. */
  subagentStart(args: {
    agentId: string;
    agentType: string;
    context: ToolUseContext;
    signal: AbortSignal;
  }): Promise<SubagentStartAnswer>;
  /** Queues a message for this loop's next model request (background agents report back here). */
  send(message: string): void;
  /** Queues a message for the session's main loop (SendMessage to "main"). */
  sendToMain(message: string): void;
  /**
   * What an agent on another machine needs of this session (isolation "remote"): who answers its
   * questions, where its decisions are audited, and the provider's name and endpoint (never its key).
   */
  readonly remoteHost?: RemoteHost;
}

export interface RemoteHost {
  prompter?: Prompter;
  audit?: AuditSink;
  provider: { name: "anthropic" | "openai"; baseURL: string };
}

export function agentRuntimeOf(context: ToolUseContext): AgentRuntime | undefined {
  const runtime = context.options.agentRuntime;
  if (runtime !== null && typeof runtime === "object" && AGENT_RUNTIME in runtime)
    return runtime as AgentRuntime;
  return undefined;
}
