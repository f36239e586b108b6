// `keel mcp --http [host:]port`: Streamable HTTP at /mcp, on 127.0.0.1 unless another host is named,
// every request carrying the bearer token (unless --no-auth, loopback only). One Keel session per MCP
// session; it ends on DELETE, after the idle timeout, or with the server.
import { randomUUID, timingSafeEqual } from "node:crypto";
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../tool/errors.ts";
import {
  type BodyProblem,
  checkInitialize,
  checkMessages,
  negotiatedVersion,
  parseJson,
  protocolAllowsBatches,
  readBody,
  requestIdsIn,
  tooLarge,
} from "./httpMessages.ts";
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  describeDuration,
  type HttpSession,
  HttpSessionTable,
} from "./httpSessions.ts";
import { MAX_MESSAGE_BYTES, withoutCodePrefix } from "./messageLimits.ts";
import { createKeelMcpServer, type KeelMcpServerOptions } from "./server.ts";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface HttpServeOptions {
  host: string;
  port: number;
  /** The bearer token every request must carry; undefined only with --no-auth, on a loopback address. */
  token: string | undefined;
  /** A fresh session (context, tools, services) for each MCP session. */
  createSession: () => KeelMcpServerOptions;
  log?: (line: string) => void;
  /** A session with no HTTP exchange for this long ends (default 30 min). */
  sessionIdleMs?: number;
  /** Live sessions at most (default 1000); an initialize past it gets 503. */
  maxSessions?: number;
  /** One request body at most (default 4 MiB, as one stdio message). */
  maxMessageBytes?: number;
}

export interface RunningHttpServer {
  url: string;
  port: number;
  /** Open MCP sessions. */
  sessionCount(): number;
  close(): Promise<void>;
}

/** `[host:]port` as given to --http; the host defaults to 127.0.0.1. */
export function parseHttpAddress(value: string): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d+)$/.exec(value.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || !Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`--http expects [host:]port, e.g. 8765 or 127.0.0.1:8765 (got "${value}")`);
  return { host: match[1] ?? "127.0.0.1", port };
}

function jsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  options: { headers?: Record<string, string>; id?: string | number | null } = {},
) {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json", ...options.headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: options.id ?? null, error: { code, message } }));
}

function refuse(res: ServerResponse, problem: BodyProblem) {
  jsonRpcError(res, problem.status, problem.code, problem.message, { id: problem.id });
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!match) return false;
  const given = Buffer.from(match[1]!.trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function hostAllowed(req: IncomingMessage, bindHost: string, port: number): boolean {
  const host = req.headers.host;
  if (!host) return false;
  const name = host.replace(/:\d+$/, "");
  const hostPort = /:(\d+)$/.exec(host)?.[1];
  if (hostPort !== undefined && Number(hostPort) !== port) return false;
  // Bound to loopback, only loopback names: a web page's DNS-rebound name is refused.
  if (isLoopbackHost(bindHost)) return isLoopbackHost(name);
  return true;
}

function originAllowed(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/**
 * A client that closes the connection before its answer has come cannot read it: its requests are
 * cancelled as a `notifications/cancelled` would (the call's signal aborts, its processes are killed).
 */
function cancelWhenClientLeaves(
  res: ServerResponse,
  transport: StreamableHTTPServerTransport,
  ids: ReadonlyArray<string | number>,
): void {
  if (ids.length === 0) return;
  res.once("close", () => {
    if (res.writableFinished) return;
    for (const requestId of ids)
      transport.onmessage?.({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId, reason: "The client closed the connection before the answer came." },
      });
  });
}

/** The transport's outgoing errors without the SDK's "MCP error <code>: " prefix (clients add their own). */
function withCleanErrors(transport: StreamableHTTPServerTransport): void {
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => send(withoutCodePrefix(message), options);
}

export async function serveHttp(options: HttpServeOptions): Promise<RunningHttpServer> {
  const log = options.log ?? (() => {});
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  const sessions = new HttpSessionTable({ idleMs, maxSessions, log });
  let port = options.port;

  const openSession = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const session = options.createSession();
    let transport: StreamableHTTPServerTransport | undefined;
    const server = createKeelMcpServer({
      ...session,
      roots: "onRequest",
      onCallCancelled: (requestId) => transport?.closeSSEStream(requestId),
    });
    const end = () => session.context.abortController.abort(new Error("The MCP session ended."));
    const protocolVersion = negotiatedVersion(
      (body as { params?: { protocolVersion?: unknown } }).params?.protocolVersion,
    );
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        const entry: HttpSession = {
          transport: transport!,
          protocolVersion,
          end,
          open: 0,
          idleTimer: undefined,
        };
        sessions.add(id, entry);
        sessions.track(id, res);
      },
    });
    withCleanErrors(transport);
    transport.onclose = () => {
      if (transport?.sessionId) sessions.remove(transport.sessionId);
      end();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const handlePost = async (req: IncomingMessage, res: ServerResponse, session: HttpSession | undefined) => {
    const read = await readBody(req, maxBytes);
    if ("tooLarge" in read) return refuse(res, tooLarge(read, maxBytes));
    const parsed = parseJson(read.text);
    if (!("value" in parsed)) return refuse(res, parsed);
    const body = parsed.value;
    if (session) {
      const header = req.headers["mcp-protocol-version"];
      const version = typeof header === "string" ? header : session.protocolVersion;
      const problem = checkMessages(body, protocolAllowsBatches(version), version);
      if (problem) return refuse(res, problem);
      cancelWhenClientLeaves(res, session.transport, requestIdsIn(body));
      return session.transport.handleRequest(req, res, body);
    }
    const problem = checkInitialize(body) ?? checkMessages(body, false, "");
    if (problem) return refuse(res, problem);
    if (sessions.isFull)
      return jsonRpcError(
        res,
        503,
        -32000,
        `Too many MCP sessions: all ${maxSessions} are in use (keel mcp --max-sessions). End sessions you no longer use (HTTP DELETE), or retry later: a session ends after ${describeDuration(idleMs)} without requests (--session-timeout).`,
        { headers: { "retry-after": "60" }, id: (body as { id?: string | number }).id ?? null },
      );
    await openSession(req, res, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/mcp") return jsonRpcError(res, 404, -32600, "Not found: the MCP endpoint is /mcp");
    if (!hostAllowed(req, options.host, port) || !originAllowed(req))
      return jsonRpcError(res, 403, -32600, "Forbidden: unexpected Host or Origin header");
    if (options.token !== undefined && !tokenMatches(req.headers.authorization, options.token))
      return jsonRpcError(
        res,
        401,
        -32001,
        "Unauthorized: send Authorization: Bearer <token> (printed by keel mcp at start, or KEEL_MCP_TOKEN)",
        { headers: { "www-authenticate": 'Bearer realm="keel"' } },
      );
    const sessionId = req.headers["mcp-session-id"];
    const session = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (typeof sessionId === "string" && !session)
      return jsonRpcError(
        res,
        404,
        -32001,
        "Session not found: it ended or never existed; initialize a new one",
      );
    // A request in progress holds the session; the standalone GET stream does not (clients keep it open
    // for as long as they live, abandoned or not).
    if (session && req.method === "POST") sessions.track(sessionId as string, res);
    if (req.method === "POST") return handlePost(req, res, session);
    if (req.method !== "GET" && req.method !== "DELETE")
      return jsonRpcError(res, 405, -32000, "Method not allowed: use POST, GET or DELETE", {
        headers: { allow: "GET, POST, DELETE" },
      });
    if (!session)
      return jsonRpcError(res, 400, -32000, "Bad Request: no session. POST an initialize request first");
    return session.transport.handleRequest(req, res);
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`HTTP request failed: ${errorMessage(error)}`);
      jsonRpcError(res, 500, -32603, "Internal error");
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;
  const hostForUrl =
    options.host.includes(":") && !options.host.startsWith("[") ? `[${options.host}]` : options.host;
  return {
    url: `http://${hostForUrl}:${port}/mcp`,
    port,
    sessionCount: () => sessions.size,
    close: async () => {
      await sessions.closeAll();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
    },
  };
}
