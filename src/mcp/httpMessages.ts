// What `keel mcp --http` checks in a POST body before the SDK's transport sees it, so each mistake gets
// the JSON-RPC error that names it: too large (413), not JSON (-32700), JSON but not JSON-RPC (-32600),
// a batch where the protocol revision has none (-32600), a malformed initialize (-32602).
import type { IncomingMessage } from "node:http";
import {
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import {
  clipForEcho,
  idFromMessageEnds,
  JSONRPC_INVALID_PARAMS,
  JSONRPC_INVALID_REQUEST,
  JSONRPC_PARSE_ERROR,
  requestIdOf,
  tooLargeMessage,
} from "./messageLimits.ts";

/** A refusal: the HTTP status and the JSON-RPC error to send. */
export interface BodyProblem {
  status: number;
  code: number;
  message: string;
  id: string | number | null;
}

/** Bytes kept of each end of a body past the limit: where SDKs write the request's id. */
const ENDS_BYTES = 512;

export interface TooLargeBody {
  tooLarge: number;
  /** The body's first and last bytes, for the request's id. */
  head: string;
  tail: string;
}

/**
 * The body as text, or `tooLarge` with its size once past `limit`. A body past the limit is read to its
 * end without being kept: the client is still sending, and a connection closed under it is a reset that
 * loses the 413. Node's request timeout (5 minutes) bounds how long a body may take.
 */
export async function readBody(
  req: IncomingMessage,
  limit: number,
): Promise<{ text: string } | TooLargeBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  let head: Buffer | undefined;
  let tail = Buffer.alloc(0);
  const tooLargeBody = (): TooLargeBody => ({
    tooLarge: size,
    head: (head ?? Buffer.alloc(0)).toString("utf8"),
    tail: tail.toString("utf8"),
  });
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= limit) {
      chunks.push(chunk as Buffer);
      continue;
    }
    if (!head) {
      const whole = Buffer.concat([...chunks, chunk as Buffer]);
      head = Buffer.from(whole.subarray(0, ENDS_BYTES));
      chunks.length = 0;
    }
    const bytes = chunk as Buffer;
    tail = Buffer.from(
      bytes.length >= ENDS_BYTES
        ? bytes.subarray(-ENDS_BYTES)
        : Buffer.concat([tail, bytes]).subarray(-ENDS_BYTES),
    );
  }
  if (size > limit) return tooLargeBody();
  return { text: Buffer.concat(chunks).toString("utf8") };
}

/** 413 with the request's id when its ends show one, as over stdio. */
export function tooLarge(body: TooLargeBody, limit: number): BodyProblem {
  return {
    status: 413,
    code: JSONRPC_INVALID_REQUEST,
    message: tooLargeMessage(body.tooLarge, limit),
    id: idFromMessageEnds(body.head, body.tail),
  };
}

export function parseJson(text: string): { value: unknown } | BodyProblem {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return {
      status: 400,
      code: JSONRPC_PARSE_ERROR,
      message: "Parse error: the body is not valid JSON",
      id: null,
    };
  }
}

/** The ids of the requests a body holds (one message or a batch); notifications and responses have none. */
export function requestIdsIn(body: unknown): Array<string | number> {
  const messages = Array.isArray(body) ? body : [body];
  const ids: Array<string | number> = [];
  for (const message of messages) {
    const method = (message as { method?: unknown } | null)?.method;
    const id = requestIdOf(message);
    if (typeof method === "string" && id !== null) ids.push(id);
  }
  return ids;
}

/** Batches were part of MCP up to 2025-03-26 and were removed in 2025-06-18. */
export function protocolAllowsBatches(version: string): boolean {
  return version < "2025-06-18";
}

/** The revision an initialize request negotiates: the client's when the server speaks it, else the latest. */
export function negotiatedVersion(requested: unknown): string {
  return typeof requested === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : LATEST_PROTOCOL_VERSION;
}

function issuesText(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return clipForEcho(
    issues
      .slice(0, 5)
      .map((issue) =>
        issue.path.length ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message,
      )
      .join("; "),
    400,
  );
}

/** Checks one message (or a batch, where `batchesAllowed`). Undefined: fine, hand it to the transport. */
export function checkMessages(
  value: unknown,
  batchesAllowed: boolean,
  version: string,
): BodyProblem | undefined {
  if (Array.isArray(value)) {
    if (!batchesAllowed)
      return {
        status: 400,
        code: JSONRPC_INVALID_REQUEST,
        message: `Invalid Request: JSON-RPC batches are not part of MCP ${version} (removed in 2025-06-18); send one message per POST`,
        id: null,
      };
    if (value.length === 0)
      return {
        status: 400,
        code: JSONRPC_INVALID_REQUEST,
        message: "Invalid Request: empty batch",
        id: null,
      };
    for (const item of value) {
      const problem = checkMessages(item, false, version);
      if (problem) return problem;
    }
    return undefined;
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return undefined;
  return {
    status: 400,
    code: JSONRPC_INVALID_REQUEST,
    message: `Invalid Request: not a JSON-RPC 2.0 message (${issuesText(parsed.error.issues)})`,
    id: requestIdOf(value),
  };
}

/** A body sent without a session: an initialize request, checked; anything else is refused. */
export function checkInitialize(value: unknown): BodyProblem | undefined {
  if (Array.isArray(value))
    return {
      status: 400,
      code: JSONRPC_INVALID_REQUEST,
      message: "Invalid Request: initialize must be sent on its own, not in a batch",
      id: null,
    };
  const method = (value as { method?: unknown } | null)?.method;
  // Not JSON-RPC at all is said first (-32600): a missing session is not what is wrong with it.
  if (method !== "initialize")
    return (
      checkMessages(value, false, "") ?? {
        status: 400,
        code: -32000,
        message:
          "Bad Request: no session. Send the Mcp-Session-Id header from the initialize response, or POST an initialize request to start a session",
        id: requestIdOf(value),
      }
    );
  const parsed = InitializeRequestSchema.safeParse(value);
  const jsonrpc = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success && jsonrpc.success) return undefined;
  const issues = [
    ...(jsonrpc.success ? [] : jsonrpc.error.issues),
    ...(parsed.success ? [] : parsed.error.issues),
  ];
  return {
    status: 400,
    code: JSONRPC_INVALID_PARAMS,
    message: `Invalid initialize request: ${issuesText(issues)}. It needs params.protocolVersion, params.capabilities and params.clientInfo {name, version}.`,
    id: requestIdOf(value),
  };
}
