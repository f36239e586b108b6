// What the agent loop reports while it works: the UI, `keel run` and library users all read these.
import type { ResultEvent } from "../pipeline/runToolUse.ts";
import type { Message } from "../tool/messages.ts";
import type { ProviderError } from "./errors.ts";
import type { StopReason, StreamEvent, Usage } from "./provider.ts";

export type EndReason =
  /** The model finished (and Stop hooks let it). */
  | "completed"
  | "max_turns"
  | "budget"
  | "interrupted"
  | "error"
  /** A hook said `continue: false`. */
  | "hook_stopped"
  /** A UserPromptSubmit hook refused the prompt. */
  | "prompt_blocked"
  /** The model ran out of output tokens or refused, and gave no tool calls. */
  | "max_tokens"
  | "refusal";

export interface RunOutcome {
  reason: EndReason;
  /** Model calls made for this prompt. */
  turns: number;
  /** The last assistant text. */
  text: string;
  /** This prompt's usage and cost (cost undefined when the model's price is unknown). */
  usage: Usage;
  costUsd: number | undefined;
  error?: ProviderError;
  /** Why it stopped, for a person (hook reason, limit reached...). */
  detail?: string;
}

export type AgentEvent =
  | { type: "request_start"; turn: number; attempt: number; model: string }
  | { type: "stream"; event: StreamEvent }
  | { type: "retry"; attempt: number; delayMs: number; error: ProviderError }
  | {
      type: "assistant";
      message: Message;
      /** The API's id of the message (absent when it gave none, or the message was cut short). */
      messageId?: string;
      /** The model that answered. */
      model: string;
      stopReason: StopReason;
      usage: Usage;
      costUsd: number | undefined;
    }
  | { type: "tool_progress"; toolUseId: string; source: "tool" | "hook"; data: unknown }
  | { type: "tool_result"; result: ResultEvent }
  /** Tool results (and hook context) as they go back to the model. */
  | { type: "user"; message: Message }
  | { type: "notice"; level: "info" | "warning"; text: string }
  | { type: "compacted"; trigger: "auto" | "manual"; summarizedMessages: number; keptMessages: number }
  | { type: "end"; outcome: RunOutcome };

/** Messages for the person (from hooks) as notices. */
export function* notices(messages: readonly string[]): Generator<AgentEvent> {
  for (const text of messages) yield { type: "notice", level: "info", text };
}
