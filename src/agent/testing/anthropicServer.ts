// A server on 127.0.0.1 that speaks the Anthropic Messages streaming protocol (SSE: message_start,
// content_block_start/delta/stop with text_delta, input_json_delta, thinking_delta, signature_delta,
// message_delta, message_stop; error events; JSON error bodies) and plays a scripted conversation.
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

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

function errorBody(type: string, message: string) {
  return { type: "error", error: { type, message } };
}

export function toolUseId(turnIndex: number, blockIndex: number): string {
  return `toolu_${String(turnIndex).padStart(2, "0")}_${blockIndex}`;
}

function blockFrames(block: ScriptBlock, index: number, id: string, size: number): Frame[] {
  const frames: Frame[] = [];
  const delta = (payload: unknown) =>
    frames.push({ data: sse("content_block_delta", { type: "content_block_delta", index, delta: payload }) });
  if (block.type === "text") {
    frames.push({
      data: sse("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      }),
    });
    for (const piece of chunks(block.text, size)) delta({ type: "text_delta", text: piece });
  } else if (block.type === "thinking") {
    frames.push({
      data: sse("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      }),
    });
    for (const piece of chunks(block.thinking, size)) delta({ type: "thinking_delta", thinking: piece });
    delta({ type: "signature_delta", signature: block.signature ?? "sig" });
  } else if (block.type === "redacted_thinking") {
    frames.push({
      data: sse("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "redacted_thinking", data: block.data },
      }),
    });
  } else {
    frames.push({
      data: sse("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: block.id ?? id, name: block.name, input: {} },
      }),
    });
    for (const piece of chunks(argumentsText(block.input), size))
      delta({ type: "input_json_delta", partial_json: piece });
  }
  frames.push({
    data: sse("content_block_stop", { type: "content_block_stop", index }),
    blockEnd: true,
  });
  return frames;
}

function messageShell(turn: ScriptTurn, body: Record<string, unknown>, turnIndex: number) {
  const usage = usageOf(turn);
  return {
    id: `msg_${String(turnIndex).padStart(4, "0")}`,
    type: "message",
    role: "assistant",
    model: typeof body.model === "string" ? body.model : "scripted",
    content: [] as unknown[],
    stop_reason: null as string | null,
    stop_sequence: null,
    usage,
  };
}

export const anthropicProtocol: Protocol = {
  path: "/v1/messages",
  apiKeyOf(request: IncomingMessage) {
    const key = request.headers["x-api-key"];
    if (typeof key === "string") return key;
    const auth = request.headers.authorization;
    return typeof auth === "string" ? auth.replace(/^Bearer\s+/i, "") : undefined;
  },
  authError: () => ({ status: 401, body: errorBody("authentication_error", "invalid x-api-key") }),
  notFound: (path) => ({ status: 404, body: errorBody("not_found_error", `Not found: ${path}`) }),
  httpError(turn) {
    const error = turn.httpError!;
    const type = error.type ?? ERROR_TYPES[error.status] ?? "api_error";
    const headers: Record<string, string> = { "request-id": "req_scripted" };
    if (error.retryAfterSeconds !== undefined) headers["retry-after"] = String(error.retryAfterSeconds);
    return { status: error.status, body: errorBody(type, error.message ?? type), headers };
  },
  errorFrame: (type, message) => sse("error", errorBody(type, message)),
  streamFrames(turn, body, turnIndex) {
    const shell = messageShell(turn, body, turnIndex);
    const usage = shell.usage;
    const frames: Frame[] = [
      {
        data: sse("message_start", {
          type: "message_start",
          message: { ...shell, usage: { ...usage, output_tokens: 1 } },
        }),
      },
      { data: sse("ping", { type: "ping" }) },
    ];
    const size = turn.chunkSize ?? 7;
    (turn.blocks ?? []).forEach((block, index) => {
      frames.push(...blockFrames(block, index, toolUseId(turnIndex, index), size));
    });
    frames.push(
      {
        data: sse("message_delta", {
          type: "message_delta",
          delta: { stop_reason: defaultStopReason(turn), stop_sequence: null },
          usage: { output_tokens: usage.output_tokens },
        }),
        final: true,
      },
      { data: sse("message_stop", { type: "message_stop" }), final: true },
    );
    return frames;
  },
  jsonResponse(turn, body, turnIndex) {
    const shell = messageShell(turn, body, turnIndex);
    shell.stop_reason = defaultStopReason(turn);
    shell.content = (turn.blocks ?? []).map((block, index) => {
      if (block.type === "text") return { type: "text", text: block.text };
      if (block.type === "thinking")
        return { type: "thinking", thinking: block.thinking, signature: block.signature ?? "sig" };
      if (block.type === "redacted_thinking") return { type: "redacted_thinking", data: block.data };
      const input = typeof block.input === "string" ? {} : block.input;
      return { type: "tool_use", id: block.id ?? toolUseId(turnIndex, index), name: block.name, input };
    });
    return shell;
  },
};

/** Starts an Anthropic-protocol server; give `server.url` to the SDK as its base URL. */
export function startAnthropicServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  return new ScriptedServer(anthropicProtocol, options).start();
}
