// The provider-neutral model of one model call: the request, the streamed events, the final message.
// Providers (anthropic.ts, openai.ts) convert at their edge; the loop sees only these shapes.
import type { ContentBlock, Message, ToolUseBlock } from "../tool/messages.ts";
import type { JSONSchema } from "../tool/Tool.ts";

export type ProviderName = "anthropic" | "openai";

/** One part of the system prompt. `cache` marks the end of a stable prefix (a cache breakpoint). */
export interface SystemPart {
  text: string;
  cache?: boolean;
}

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: JSONSchema;
  strict?: boolean;
}

export interface ModelRequest {
  model: string;
  system: SystemPart[];
  messages: readonly Message[];
  tools: ToolSpec[];
  maxTokens: number;
  /** Extended thinking budget (tokens); passed to providers that support it. */
  thinkingBudget?: number;
  temperature?: number;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheCreationInputTokens: number;
  cacheReadInputTokens: number;
}

export const ZERO_USAGE: Usage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheCreationInputTokens: 0,
  cacheReadInputTokens: 0,
});

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
  };
}

/** Every token the request put in the context window (what compaction watches). */
export function contextTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheCreationInputTokens + usage.cacheReadInputTokens + usage.outputTokens;
}

export type StopReason =
  | "end_turn"
  | "tool_use"
  | "max_tokens"
  | "stop_sequence"
  | "refusal"
  | "pause_turn"
  | "other";

/** What a provider yields while the message streams. */
export type StreamEvent =
  | { type: "message_start"; model: string }
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; thinking: string }
  | { type: "tool_use_start"; id: string; name: string }
  | { type: "tool_input_delta"; id: string; partialJson: string }
  /** A tool call whose input is complete: the loop starts it now, before the message ends. */
  | { type: "tool_use_complete"; block: ToolUseBlock; repaired?: boolean; malformed?: boolean };

/** What a provider returns when the message is complete. */
export interface ModelResponse {
  content: ContentBlock[];
  stopReason: StopReason;
  usage: Usage;
  model: string;
  /** The API's id of the message (`msg_...`, `chatcmpl-...`), when it gave one. */
  id?: string;
}

export interface ModelProvider {
  readonly name: ProviderName;
  /** Where requests go, for messages ("https://api.anthropic.com", "http://localhost:11434/v1"). */
  readonly baseURL: string;
  /**
   * Streams one assistant message. Throws ProviderError (never a raw SDK error); on abort throws a
   * ProviderError with code "aborted" after yielding what had arrived.
   */
  stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent, ModelResponse, undefined>;
}

/** Runs a stream to its end and returns the message (classifier, compaction summaries). */
export async function completeMessage(
  provider: ModelProvider,
  request: ModelRequest,
  signal: AbortSignal,
): Promise<ModelResponse> {
  const stream = provider.stream(request, signal);
  for (;;) {
    const next = await stream.next();
    if (next.done) return next.value;
  }
}

export function responseText(content: readonly ContentBlock[]): string {
  return content
    .filter((block): block is Extract<ContentBlock, { type: "text" }> => block.type === "text")
    .map((block) => block.text)
    .join("");
}
