// Limits that `keel mcp` applies the same way on stdio and HTTP: the size of one incoming JSON-RPC
// message, and how much of an offending input an error message may quote back.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export { clipForEcho, MAX_ECHO_CHARS } from "../tool/errors.ts";

/** One incoming message (a stdio line or an HTTP body): 4 MiB, the MCP SDK's HTTP default. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;
export const JSONRPC_INVALID_PARAMS = -32602;

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) ? 1 : 0)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

export function tooLargeMessage(bytes: number | undefined, limit = MAX_MESSAGE_BYTES): string {
  const size = bytes === undefined ? "over" : `${formatBytes(bytes)}, over`;
  return `Request too large: one message may be at most ${formatBytes(limit)} (this one is ${size} the limit). Send large content in smaller parts.`;
}

/**
 * The id of a JSON-RPC request that was too large to parse, read from the ends of its text: the SDKs
 * write `"id"` last (`{..."jsonrpc":"2.0","id":7}`) or first after `jsonrpc`. Anything else: null.
 */
export function idFromMessageEnds(head: string, tail: string): string | number | null {
  const last = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*}\s*$/.exec(tail);
  const first =
    /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*,/.exec(
      head,
    );
  const raw = last?.[1] ?? first?.[1];
  if (raw === undefined) return null;
  try {
    return JSON.parse(raw) as string | number;
  } catch {
    return null;
  }
}

/** The `id` of a parsed value when it is a valid JSON-RPC id, else null. */
export function requestIdOf(value: unknown): string | number | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

export function errorResponse(id: string | number | null, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code, message } } as unknown as JSONRPCMessage;
}

/**
 * The SDK's McpError puts "MCP error <code>: " in front of its message, and the client's McpError adds it
 * again: `MCP error -32602: MCP error -32602: ...`. The code travels in its own field, so it goes.
 */
export function withoutCodePrefix(message: JSONRPCMessage): JSONRPCMessage {
  const error = (message as { error?: { code?: unknown; message?: unknown } }).error;
  if (!error || typeof error.message !== "string") return message;
  const prefix = `MCP error ${String(error.code)}: `;
  if (!error.message.startsWith(prefix)) return message;
  return { ...message, error: { ...error, message: error.message.slice(prefix.length) } } as JSONRPCMessage;
}
