// A minimal AI SDK language model (spec v3) over an OpenAI-compatible Chat Completions endpoint, for
// tests only: no AI SDK provider package (@ai-sdk/openai-compatible) is installed here. Non-streaming.
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
} from "@ai-sdk/provider";

type ChatMessage = Record<string, unknown>;

function toolResultText(output: { type: string; value?: unknown; reason?: string }): string {
  if (output.type === "text" || output.type === "error-text") return String(output.value);
  if (output.type === "execution-denied") return `denied: ${output.reason ?? ""}`;
  if (output.type === "content")
    return (output.value as Array<{ type: string; text?: string }>)
      .map((part) => part.text ?? `[${part.type}]`)
      .join("\n");
  return JSON.stringify(output.value);
}

function toMessages(prompt: LanguageModelV3CallOptions["prompt"]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const message of prompt) {
    if (message.role === "system") messages.push({ role: "system", content: message.content });
    else if (message.role === "user")
      messages.push({
        role: "user",
        content: message.content.map((part) => (part.type === "text" ? part.text : "")).join(""),
      });
    else if (message.role === "assistant") {
      const text = message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      const calls = message.content.flatMap((part) =>
        part.type === "tool-call"
          ? [
              {
                id: part.toolCallId,
                type: "function",
                function: {
                  name: part.toolName,
                  arguments: typeof part.input === "string" ? part.input : JSON.stringify(part.input),
                },
              },
            ]
          : [],
      );
      messages.push({
        role: "assistant",
        content: text || null,
        ...(calls.length ? { tool_calls: calls } : {}),
      });
    } else
      for (const part of message.content)
        if (part.type === "tool-result")
          messages.push({
            role: "tool",
            tool_call_id: part.toolCallId,
            content: toolResultText(part.output),
          });
  }
  return messages;
}

export function chatCompletionsModel(options: {
  baseURL: string;
  apiKey: string;
  model: string;
}): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "test-chat-completions",
    modelId: options.model,
    supportedUrls: {},
    async doGenerate(call): Promise<LanguageModelV3GenerateResult> {
      const tools = (call.tools ?? []).flatMap((tool) =>
        tool.type === "function"
          ? [
              {
                type: "function",
                function: {
                  name: tool.name,
                  description: tool.description ?? "",
                  parameters: tool.inputSchema,
                },
              },
            ]
          : [],
      );
      const response = await fetch(`${options.baseURL}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${options.apiKey}` },
        body: JSON.stringify({
          model: options.model,
          messages: toMessages(call.prompt),
          ...(tools.length ? { tools } : {}),
        }),
        ...(call.abortSignal ? { signal: call.abortSignal } : {}),
      });
      const body = (await response.json()) as {
        choices: Array<{
          message: {
            content: string | null;
            tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
          };
          finish_reason: string;
        }>;
        usage: { prompt_tokens: number; completion_tokens: number };
      };
      const choice = body.choices[0]!;
      const content: LanguageModelV3Content[] = [];
      if (choice.message.content) content.push({ type: "text", text: choice.message.content });
      for (const toolCall of choice.message.tool_calls ?? [])
        content.push({
          type: "tool-call",
          toolCallId: toolCall.id,
          toolName: toolCall.function.name,
          input: toolCall.function.arguments,
        });
      return {
        content,
        finishReason: {
          unified: choice.finish_reason === "tool_calls" ? "tool-calls" : "stop",
          raw: choice.finish_reason,
        },
        usage: {
          inputTokens: {
            total: body.usage.prompt_tokens,
            noCache: body.usage.prompt_tokens,
            cacheRead: 0,
            cacheWrite: 0,
          },
          outputTokens: {
            total: body.usage.completion_tokens,
            text: body.usage.completion_tokens,
            reasoning: 0,
          },
        },
        warnings: [],
      };
    },
    doStream() {
      return Promise.reject(new Error("this test model does not stream"));
    },
  };
}
