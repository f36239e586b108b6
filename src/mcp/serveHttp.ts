// `keel mcp --http [host:]port`: Streamable HTTP at /mcp, on 127.0.0.1 unless another host is named,
// every request carrying the bearer token. One Keel session per MCP session; it ends with the session.
import { randomUUID, timingSafeEqual } from "node:crypto";
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { errorMessage } from "../tool/errors.ts";
import { createKeelMcpServer, type KeelMcpServerOptions } from "./server.ts";

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export interface HttpServeOptions {
  host: string;
  port: number;
  token: string;
  /** A fresh session (context, tools, services) for each MCP session. */
  createSession: () => KeelMcpServerOptions;
  log?: (line: string) => void;
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
  headers: Record<string, string> = {},
) {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
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
  if (LOOPBACK_HOSTS.has(bindHost)) return LOOPBACK_HOSTS.has(name);
  return true;
}

function originAllowed(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  try {
    return LOOPBACK_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export async function serveHttp(options: HttpServeOptions): Promise<RunningHttpServer> {
  const log = options.log ?? (() => {});
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; end: () => void }>();
  let port = options.port;

  const openSession = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const session = options.createSession();
    const server = createKeelMcpServer(session);
    const end = () => session.context.abortController.abort(new Error("The MCP session ended."));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, end });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      end();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path !== "/mcp") return jsonRpcError(res, 404, -32600, "Not found: the MCP endpoint is /mcp");
    if (!hostAllowed(req, options.host, port) || !originAllowed(req))
      return jsonRpcError(res, 403, -32600, "Forbidden: unexpected Host or Origin header");
    if (!tokenMatches(req.headers.authorization, options.token))
      return jsonRpcError(
        res,
        401,
        -32001,
        "Unauthorized: send Authorization: Bearer <token> (printed by keel mcp at start, or KEEL_MCP_TOKEN)",
        {
          "www-authenticate": 'Bearer realm="keel"',
        },
      );
    const sessionId = req.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (typeof sessionId === "string" && !existing)
      return jsonRpcError(
        res,
        404,
        -32001,
        "Session not found: it ended or never existed; initialize a new one",
      );
    if (req.method !== "POST") {
      if (!existing)
        return jsonRpcError(res, 400, -32000, "Bad Request: no session; POST an initialize request first");
      return existing.transport.handleRequest(req, res);
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch (error) {
      const tooLarge = errorMessage(error) === "body too large";
      return jsonRpcError(
        res,
        tooLarge ? 413 : 400,
        tooLarge ? -32600 : -32700,
        tooLarge ? "Request body too large" : "Parse error: the body is not valid JSON",
      );
    }
    if (existing) return existing.transport.handleRequest(req, res, body);
    const initializing = Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
    if (!initializing)
      return jsonRpcError(res, 400, -32000, "Bad Request: no session; send an initialize request first");
    await openSession(req, res, body);
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
      for (const { transport, end } of sessions.values()) {
        end();
        await transport.close().catch(() => {});
      }
      sessions.clear();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
    },
  };
}
