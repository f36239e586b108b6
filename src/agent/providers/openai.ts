// OpenAI-compatible Chat Completions through the official SDK, with a configurable base URL so hosted
// services and local servers (Ollama, vLLM, llama.cpp, LM Studio) work. Streamed tool-call deltas are
// reassembled by index; a call starts as soon as its arguments form one complete JSON object.
import OpenAI from "openai";
import type { ContentBlock, ImageBlock, Message, TextBlock, ToolUseBlock } from "../../tool/messages.ts";
import type { ErrorSite } from "../errors.ts";
import { isCompleteJsonObject } from "../jsonRepair.ts";
import type {
  ModelProvider,
  ModelRequest,
  ModelResponse,
  StopReason,
  StreamEvent,
  Usage,
} from "../provider.ts";
import { assertStreamComplete, completeToolUse, emptyUsage, streamFailure } from "./streaming.ts";

export interface OpenAIProviderOptions {
  apiKey: string;
  baseURL?: string;
  timeoutMs?: number;
}

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
type UserPart = OpenAI.Chat.ChatCompletionContentPart;

const OFFICIAL = "https://api.openai.com/v1";

function imagePart(image: ImageBlock): UserPart {
  return {
    type: "image_url",
    image_url: { url: `data:${image.source.media_type};base64,${image.source.data}` },
  };
}

function argumentsOf(input: unknown): string {
  return typeof input === "string" ? input : JSON.stringify(input ?? {});
}

function assistantMessage(blocks: readonly ContentBlock[]): ChatMessage | undefined {
  const text = blocks
    .filter((block): block is TextBlock => block.type === "text")
    .map((block) => block.text)
    .join("");
  const calls = blocks
    .filter((block): block is ToolUseBlock => block.type === "tool_use")
    .map((block) => ({
      id: block.id,
      type: "function" as const,
      function: { name: block.name, arguments: argumentsOf(block.input) },
    }));
  if (!text && calls.length === 0) return undefined;
  return { role: "assistant", content: text || null, ...(calls.length ? { tool_calls: calls } : {}) };
}

/** Tool results become `tool` messages (right after the assistant's calls); the rest one user message. */
function userMessages(blocks: readonly ContentBlock[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  const parts: UserPart[] = [];
  for (const block of blocks) {
    if (block.type === "tool_result") {
      const content = block.content;
      const textOf =
        typeof content === "string"
          ? content
          : content
              .filter((p) => p.type === "text")
              .map((p) => p.text)
              .join("\n");
      out.push({
        role: "tool",
        tool_call_id: block.tool_use_id,
        content: block.is_error ? `Error: ${textOf}` : textOf,
      });
      if (typeof content !== "string")
        for (const part of content) if (part.type === "image") parts.push(imagePart(part));
    } else if (block.type === "text") parts.push({ type: "text", text: block.text });
    else if (block.type === "image") parts.push(imagePart(block));
  }
  if (parts.length > 0) out.push({ role: "user", content: parts });
  return out;
}

export function toOpenAIMessages(system: string, messages: readonly Message[]): ChatMessage[] {
  const out: ChatMessage[] = system ? [{ role: "system", content: system }] : [];
  for (const message of messages) {
    if (typeof message.content === "string") {
      out.push(
        message.role === "user"
          ? { role: "user", content: message.content }
          : { role: "assistant", content: message.content },
      );
      continue;
    }
    if (message.role === "assistant") {
      const converted = assistantMessage(message.content);
      if (converted) out.push(converted);
    } else out.push(...userMessages(message.content));
  }
  return out;
}

export function buildOpenAIParams(
  request: ModelRequest,
  baseURL: string,
): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
  const params: OpenAI.Chat.ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages: toOpenAIMessages(request.system.map((part) => part.text).join("\n\n"), request.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  // OpenAI's own newer models refuse max_tokens; compatible servers mostly know only max_tokens.
  if (baseURL.replace(/\/+$/, "") === OFFICIAL) params.max_completion_tokens = request.maxTokens;
  else params.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) params.temperature = request.temperature;
  if (request.tools.length > 0)
    params.tools = request.tools.map((tool) => ({
      type: "function",
      function: {
        name: tool.name,
        description: tool.description,
        parameters: tool.inputSchema,
        ...(tool.strict ? { strict: true } : {}),
      },
    }));
  return params;
}

const FINISH: Record<string, StopReason> = {
  stop: "end_turn",
  tool_calls: "tool_use",
  function_call: "tool_use",
  length: "max_tokens",
  content_filter: "refusal",
};

interface PendingCall {
  id: string;
  name: string;
  args: string;
  completed: boolean;
  block?: ToolUseBlock;
}

export class OpenAIProvider implements ModelProvider {
  readonly name = "openai" as const;
  readonly baseURL: string;
  readonly #client: OpenAI;

  constructor(options: OpenAIProviderOptions) {
    this.baseURL = options.baseURL ?? OFFICIAL;
    this.#client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: this.baseURL,
      maxRetries: 0,
      timeout: options.timeoutMs ?? 10 * 60 * 1000,
    });
  }

  #site(model: string): ErrorSite {
    const service =
      this.baseURL.replace(/\/+$/, "") === OFFICIAL ? "OpenAI API" : "OpenAI-compatible endpoint";
    return { service, baseURL: this.baseURL, model, keyVariable: "OPENAI_API_KEY" };
  }

  async *stream(
    request: ModelRequest,
    signal: AbortSignal,
  ): AsyncGenerator<StreamEvent, ModelResponse, undefined> {
    const site = this.#site(request.model);
    const calls: PendingCall[] = [];
    const content: ContentBlock[] = [];
    const usage = emptyUsage();
    let model = request.model;
    let id: string | undefined;
    let stopReason: StopReason | undefined;
    let started = false;
    const appendText = (text: string) => {
      const last = content.at(-1);
      if (last?.type === "text") last.text += text;
      else content.push({ type: "text", text });
    };
    const appendThinking = (thinking: string) => {
      const last = content.at(-1);
      if (last?.type === "thinking") last.thinking += thinking;
      else content.push({ type: "thinking", thinking });
    };
    const complete = (call: PendingCall): StreamEvent | undefined => {
      if (call.completed) return undefined;
      call.completed = true;
      const block: ToolUseBlock = { type: "tool_use", id: call.id, name: call.name, input: {} };
      const event = completeToolUse(block, call.args);
      call.block = block;
      content.push(block);
      return event;
    };
    try {
      const stream = await this.#client.chat.completions.create(buildOpenAIParams(request, this.baseURL), {
        signal,
      });
      for await (const chunk of stream) {
        if (!started) {
          started = true;
          model = chunk.model || model;
          id = chunk.id || undefined;
          yield { type: "message_start", model };
        }
        if (chunk.usage) readUsage(chunk.usage, usage);
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        const delta = choice.delta as OpenAI.Chat.ChatCompletionChunk.Choice.Delta & {
          reasoning_content?: string | null;
          reasoning?: string | null;
        };
        const reasoning = delta?.reasoning_content ?? delta?.reasoning;
        if (reasoning) {
          appendThinking(reasoning);
          yield { type: "thinking_delta", thinking: reasoning };
        }
        if (delta?.content) {
          appendText(delta.content);
          yield { type: "text_delta", text: delta.content };
        }
        for (const part of delta?.tool_calls ?? []) {
          let call = calls[part.index];
          if (!call) {
            // A new index means every earlier call is complete.
            for (const earlier of calls) {
              const done = earlier ? complete(earlier) : undefined;
              if (done) yield done;
            }
            call = {
              id: part.id ?? `call_${part.index}_${Date.now()}`,
              name: part.function?.name ?? "",
              args: "",
              completed: false,
            };
            calls[part.index] = call;
            yield { type: "tool_use_start", id: call.id, name: call.name };
          }
          if (part.function?.name && !call.name) call.name = part.function.name;
          const piece = part.function?.arguments ?? "";
          if (piece && !call.completed) {
            call.args += piece;
            yield { type: "tool_input_delta", id: call.id, partialJson: piece };
            if (isCompleteJsonObject(call.args)) {
              const done = complete(call);
              if (done) yield done;
            }
          }
        }
        if (choice.finish_reason) {
          stopReason = FINISH[choice.finish_reason] ?? "other";
          for (const call of calls) {
            const done = call ? complete(call) : undefined;
            if (done) yield done;
          }
        }
      }
    } catch (error) {
      throw streamFailure(error, signal, site);
    }
    assertStreamComplete(signal, stopReason !== undefined, site);
    return { content, stopReason: stopReason as StopReason, usage, model, ...(id ? { id } : {}) };
  }
}

function readUsage(raw: OpenAI.CompletionUsage, usage: Usage): void {
  const cached = raw.prompt_tokens_details?.cached_tokens ?? 0;
  usage.inputTokens = Math.max(0, (raw.prompt_tokens ?? 0) - cached);
  usage.cacheReadInputTokens = cached;
  usage.outputTokens = raw.completion_tokens ?? 0;
}
