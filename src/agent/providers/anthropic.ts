// The Anthropic Messages API through the official SDK: streamed, with cache breakpoints on the stable
// prefix (tools + system) and on the newest user turn, extended thinking passed through both ways.
import Anthropic from "@anthropic-ai/sdk";
import type { ContentBlock, Message } from "../../tool/messages.ts";
import type { ErrorSite } from "../errors.ts";
import { parseToolArguments } from "../jsonRepair.ts";
import type { ModelProvider, ModelRequest, ModelResponse, StopReason, StreamEvent } from "../provider.ts";
import { assertStreamComplete, completeToolUse, emptyUsage, streamFailure } from "./streaming.ts";

export interface AnthropicProviderOptions {
  apiKey: string;
  baseURL?: string;
  /** Milliseconds before a request with no answer is abandoned. */
  timeoutMs?: number;
}

type Params = Anthropic.MessageCreateParamsStreaming;
type Block = Anthropic.ContentBlockParam;
const EPHEMERAL = { type: "ephemeral" } as const;

function toolInputObject(input: unknown): Record<string, unknown> {
  if (input !== null && typeof input === "object" && !Array.isArray(input))
    return input as Record<string, unknown>;
  if (typeof input === "string") {
    const parsed = parseToolArguments(input);
    if (parsed.ok) return parsed.value;
  }
  // The API takes only objects; the model already got an invalid_json error for this call.
  return {};
}

function toBlock(block: ContentBlock): Block | undefined {
  switch (block.type) {
    case "text":
      return block.text === "" ? undefined : { type: "text", text: block.text };
    case "image":
      return { type: "image", source: block.source };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: toolInputObject(block.input) };
    case "tool_result":
      return {
        type: "tool_result",
        tool_use_id: block.tool_use_id,
        content:
          typeof block.content === "string"
            ? block.content
            : block.content.map((part) =>
                part.type === "text"
                  ? { type: "text" as const, text: part.text }
                  : { type: "image" as const, source: part.source },
              ),
        ...(block.is_error ? { is_error: true } : {}),
      };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: block.data };
    case "thinking":
      // Thinking without a signature (another provider's reasoning) cannot be sent back.
      return block.signature
        ? { type: "thinking", thinking: block.thinking, signature: block.signature }
        : undefined;
  }
}

export function toAnthropicMessages(messages: readonly Message[]): Anthropic.MessageParam[] {
  const converted: Anthropic.MessageParam[] = [];
  for (const message of messages) {
    const content =
      typeof message.content === "string"
        ? [{ type: "text" as const, text: message.content }]
        : message.content.map(toBlock).filter((block): block is Block => block !== undefined);
    if (content.length === 0) continue;
    converted.push({ role: message.role, content });
  }
  // The newest user turn ends the cached prefix, so the next request reuses everything before it.
  const last = converted.at(-1);
  if (last?.role === "user" && Array.isArray(last.content)) {
    const final = last.content.at(-1) as Block & { cache_control?: unknown };
    if (final && final.type !== "thinking" && final.type !== "redacted_thinking")
      final.cache_control = EPHEMERAL;
  }
  return converted;
}

export function buildAnthropicParams(request: ModelRequest): Params {
  const system = request.system.map((part) => ({
    type: "text" as const,
    text: part.text,
    ...(part.cache ? { cache_control: EPHEMERAL } : {}),
  }));
  const params: Params = {
    model: request.model,
    max_tokens: request.maxTokens,
    stream: true,
    system,
    messages: toAnthropicMessages(request.messages),
  };
  if (request.tools.length > 0)
    params.tools = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
      ...(tool.strict ? { strict: true } : {}),
    }));
  // This SDK version has no temperature parameter; the API's default applies.
  if (request.thinkingBudget) params.thinking = { type: "enabled", budget_tokens: request.thinkingBudget };
  return params;
}

const STOP_REASONS: Record<string, StopReason> = {
  end_turn: "end_turn",
  tool_use: "tool_use",
  max_tokens: "max_tokens",
  stop_sequence: "stop_sequence",
  refusal: "refusal",
  pause_turn: "pause_turn",
};

interface OpenBlock {
  block: ContentBlock;
  json: string;
}

export class AnthropicProvider implements ModelProvider {
  readonly name = "anthropic" as const;
  readonly baseURL: string;
  readonly #client: Anthropic;

  constructor(options: AnthropicProviderOptions) {
    this.baseURL = options.baseURL ?? "https://api.anthropic.com";
    this.#client = new Anthropic({
      apiKey: options.apiKey,
      baseURL: this.baseURL,
      // Keel retries itself (the loop must discard tools started by an abandoned response).
      maxRetries: 0,
      timeout: options.timeoutMs ?? 10 * 60 * 1000,
    });
  }

  #site(model: string): ErrorSite {
    return { service: "Anthropic API", baseURL: this.baseURL, model, keyVariable: "ANTHROPIC_API_KEY" };
  }

  async *stream(
    request: ModelRequest,
    signal: AbortSignal,
  ): AsyncGenerator<StreamEvent, ModelResponse, undefined> {
    const site = this.#site(request.model);
    const blocks = new Map<number, OpenBlock>();
    const usage = emptyUsage();
    let model = request.model;
    let id: string | undefined;
    let stopReason: StopReason = "other";
    let stopped = false;
    try {
      const stream = await this.#client.messages.create(buildAnthropicParams(request), { signal });
      for await (const event of stream) {
        switch (event.type) {
          case "message_start": {
            model = event.message.model;
            id = event.message.id || undefined;
            const start = event.message.usage;
            usage.inputTokens = start.input_tokens ?? 0;
            usage.cacheCreationInputTokens = start.cache_creation_input_tokens ?? 0;
            usage.cacheReadInputTokens = start.cache_read_input_tokens ?? 0;
            usage.outputTokens = start.output_tokens ?? 0;
            yield { type: "message_start", model };
            break;
          }
          case "content_block_start": {
            const start = event.content_block;
            if (start.type === "tool_use") {
              blocks.set(event.index, {
                block: { type: "tool_use", id: start.id, name: start.name, input: {} },
                json: "",
              });
              yield { type: "tool_use_start", id: start.id, name: start.name };
            } else if (start.type === "thinking")
              blocks.set(event.index, {
                block: { type: "thinking", thinking: start.thinking ?? "" },
                json: "",
              });
            else if (start.type === "redacted_thinking")
              blocks.set(event.index, { block: { type: "redacted_thinking", data: start.data }, json: "" });
            else if (start.type === "text")
              blocks.set(event.index, { block: { type: "text", text: start.text ?? "" }, json: "" });
            break;
          }
          case "content_block_delta": {
            const open = blocks.get(event.index);
            if (!open) break;
            const delta = event.delta;
            if (delta.type === "text_delta" && open.block.type === "text") {
              open.block.text += delta.text;
              yield { type: "text_delta", text: delta.text };
            } else if (delta.type === "input_json_delta" && open.block.type === "tool_use") {
              open.json += delta.partial_json;
              yield { type: "tool_input_delta", id: open.block.id, partialJson: delta.partial_json };
            } else if (delta.type === "thinking_delta" && open.block.type === "thinking") {
              open.block.thinking += delta.thinking;
              yield { type: "thinking_delta", thinking: delta.thinking };
            } else if (delta.type === "signature_delta" && open.block.type === "thinking") {
              open.block.signature = (open.block.signature ?? "") + delta.signature;
            }
            break;
          }
          case "content_block_stop": {
            const open = blocks.get(event.index);
            if (open?.block.type === "tool_use") yield completeToolUse(open.block, open.json);
            break;
          }
          case "message_delta":
            stopReason = STOP_REASONS[event.delta.stop_reason ?? ""] ?? "other";
            usage.outputTokens = event.usage.output_tokens ?? usage.outputTokens;
            if (event.usage.input_tokens != null) usage.inputTokens = event.usage.input_tokens;
            break;
          case "message_stop":
            stopped = true;
            break;
        }
      }
    } catch (error) {
      throw streamFailure(error, signal, site);
    }
    assertStreamComplete(signal, stopped, site);
    const content = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, open]) => open.block);
    return { content, stopReason, usage, model, ...(id ? { id } : {}) };
  }
}
