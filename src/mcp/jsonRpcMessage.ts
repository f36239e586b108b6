// Checking that a parsed line or body is a JSON-RPC 2.0 message. The SDK's schema (JSONRPCMessageSchema, a
// union of four strict zod objects) decides; the messages every call sends, a request or a notification
// with plain params, are recognised by hand first: the union costs ~20 µs a message, as much as some of
// Read's own checks. The hand check accepts only what the schema accepts, and hands on the message the
// schema would give back (the table in jsonRpcMessage.test.ts holds the two to the same answers).
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A string, or an integer the schema's z.number().int() takes (a safe integer). */
function isIdOrToken(value: unknown): boolean {
  return typeof value === "string" || Number.isSafeInteger(value);
}

/**
 * Keys the schema's objects would not hand on as they are: `__proto__` (a copy made by assignment sets a
 * prototype instead) and the related-task metadata (an object the schema strips to its known keys).
 */
function copiesDiffer(object: Record<string, unknown>): boolean {
  return Object.hasOwn(object, "__proto__") || Object.hasOwn(object, "io.modelcontextprotocol/related-task");
}

/** `params` as the schema takes it unchanged: absent, or an object whose `_meta` is absent or plain. */
function plainParams(params: unknown): boolean {
  if (params === undefined) return true;
  if (!isPlainObject(params) || copiesDiffer(params)) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (!isPlainObject(meta) || copiesDiffer(meta)) return false;
  return meta.progressToken === undefined || isIdOrToken(meta.progressToken);
}

/** A request (with an id) or a notification (without) the schema would accept as it is. */
function isPlainRequestOrNotification(value: Record<string, unknown>): boolean {
  if (value.jsonrpc !== "2.0" || typeof value.method !== "string" || copiesDiffer(value)) return false;
  if (Object.hasOwn(value, "id") && !isIdOrToken(value.id)) return false;
  for (const key in value) if (!REQUEST_KEYS.has(key)) return false;
  return plainParams(value.params);
}

/** The message, or undefined when `value` is not a JSON-RPC 2.0 message. */
export function toJsonRpcMessage(value: unknown): JSONRPCMessage | undefined {
  if (isPlainObject(value) && isPlainRequestOrNotification(value)) return value as JSONRPCMessage;
  const parsed = JSONRPCMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
