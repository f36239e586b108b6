// A server on 127.0.0.1 that speaks the OpenAI Chat Completions streaming protocol
// (`chat.completion.chunk` SSE with content, reasoning_content and tool_calls deltas by index,
// finish_reason, a usage chunk when asked, `data: [DONE]`; JSON error bodies) and plays a script.
import type { IncomingMessage } from "node:http";
import {
  argumentsText,
  chunks,
  defaultStopReason,
  type ScriptBlock,
  type ScriptTurn,
  usageOf,
} from "./script.ts";
import { type Frame, type Protocol, ScriptedServer, type ScriptedServerOptions } from "./server.ts";

const FINISH: Record<string, string> = {
  end_turn: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
  stop_sequence: "stop",
};

function errorBody(message: string, type: string, code: string | null) {
  return { error: { message, type, param: null, code } };
}

export function callId(turnIndex: number, blockIndex: number): string {
  return `call_${String(turnIndex).padStart(2, "0")}_${blockIndex}`;
}

function openaiUsage(turn: ScriptTurn) {
  const usage = usageOf(turn);
  return {
    prompt_tokens: usage.input_tokens + usage.cache_read_input_tokens,
    completion_tokens: usage.output_tokens,
    total_tokens: usage.input_tokens + usage.cache_read_input_tokens + usage.output_tokens,
    prompt_tokens_details: { cached_tokens: usage.cache_read_input_tokens },
  };
}

export const openaiProtocol: Protocol = {
  path: "/v1/chat/completions",
  apiKeyOf(request: IncomingMessage) {
    const auth = request.headers.authorization;
    return typeof auth === "string" ? auth.replace(/^Bearer\s+/i, "") : undefined;
  },
  authError: () => ({
    status: 401,
    body: errorBody("Incorrect API key provided.", "invalid_request_error", "invalid_api_key"),
  }),
  notFound: (path) => ({
    status: 404,
    body: errorBody(`Unknown request URL: POST ${path}.`, "invalid_request_error", "unknown_url"),
  }),
  httpError(turn) {
    const error = turn.httpError!;
    const code =
      error.status === 429 ? "rate_limit_exceeded" : error.status === 404 ? "model_not_found" : null;
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds !== undefined) headers["retry-after"] = String(error.retryAfterSeconds);
    return {
      status: error.status,
      body: errorBody(error.message ?? `error ${error.status}`, error.type ?? "server_error", code),
      headers,
    };
  },
  errorFrame: (type, message) => `data: ${JSON.stringify(errorBody(message, type, type))}\n\n`,
  streamFrames(turn, body, turnIndex) {
    const model = typeof body.model === "string" ? body.model : "scripted";
    const id = `chatcmpl-${String(turnIndex).padStart(4, "0")}`;
    const created = 1_700_000_000 + turnIndex;
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created,
        model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      })}\n\n`;
    const frames: Frame[] = [{ data: chunk({ role: "assistant", content: "" }) }];
    const size = turn.chunkSize ?? 7;
    let toolIndex = 0;
    (turn.blocks ?? []).forEach((block: ScriptBlock, blockIndex) => {
      if (block.type === "text") {
        for (const piece of chunks(block.text, size)) frames.push({ data: chunk({ content: piece }) });
      } else if (block.type === "thinking") {
        for (const piece of chunks(block.thinking, size))
          frames.push({ data: chunk({ reasoning_content: piece }) });
      } else if (block.type === "redacted_thinking") {
        // Chat Completions has no encrypted reasoning; nothing is sent for it.
      } else {
        const index = toolIndex++;
        frames.push({
          data: chunk({
            tool_calls: [
              {
                index,
                id: block.id ?? callId(turnIndex, blockIndex),
                type: "function",
                function: { name: block.name, arguments: "" },
              },
            ],
          }),
        });
        for (const piece of chunks(argumentsText(block.input), size))
          frames.push({ data: chunk({ tool_calls: [{ index, function: { arguments: piece } }] }) });
      }
      frames[frames.length - 1]!.blockEnd = true;
    });
    frames.push({ data: chunk({}, FINISH[defaultStopReason(turn)] ?? "stop"), final: true });
    const options = body.stream_options as { include_usage?: boolean } | undefined;
    if (options?.include_usage) {
      frames.push({
        data: `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage: openaiUsage(turn) })}\n\n`,
        final: true,
      });
    }
    frames.push({ data: "data: [DONE]\n\n", final: true });
    return frames;
  },
  jsonResponse(turn, body, turnIndex) {
    const textParts = (turn.blocks ?? []).filter((block) => block.type === "text");
    const calls = (turn.blocks ?? []).flatMap((block, blockIndex) =>
      block.type === "tool_use"
        ? [
            {
              id: block.id ?? callId(turnIndex, blockIndex),
              type: "function",
              function: { name: block.name, arguments: argumentsText(block.input) },
            },
          ]
        : [],
    );
    return {
      id: `chatcmpl-${String(turnIndex).padStart(4, "0")}`,
      object: "chat.completion",
      created: 1_700_000_000 + turnIndex,
      model: typeof body.model === "string" ? body.model : "scripted",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: textParts.length ? textParts.map((part) => part.text).join("") : null,
            ...(calls.length ? { tool_calls: calls } : {}),
            refusal: null,
          },
          logprobs: null,
          finish_reason: FINISH[defaultStopReason(turn)] ?? "stop",
        },
      ],
      usage: openaiUsage(turn),
    };
  },
};

/** Starts an OpenAI-protocol server; give `${server.url}/v1` to the SDK as its base URL. */
export function startOpenAIServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  return new ScriptedServer(openaiProtocol, options).start();
}
