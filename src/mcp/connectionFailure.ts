// Why an MCP server could not be used, in plain words and once: "could not connect to <url>: connection
// refused", "the command was not found", "needs login". The SDK reports one failure through several
// channels (the thrown error, onerror, a wrapped cause); each is said once.
import { clipForEcho, errorMessage } from "../tool/errors.ts";
import type { McpServerConfig } from "./config.ts";

/** JSON-RPC codes the SDK uses for a closed connection and a request timeout. */
export const CONNECTION_CLOSED = -32000;
export const REQUEST_TIMEOUT = -32001;

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused (is the server running?)",
  ECONNRESET: "the connection was reset",
  ENOTFOUND: "the host name was not found",
  EAI_AGAIN: "the host name could not be resolved",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "the host is unreachable",
  ENETUNREACH: "the network is unreachable",
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate could not be verified",
};

export function codeOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" ? code : undefined;
}

/** The innermost network error of a fetch failure ("fetch failed" says nothing by itself). */
function networkCause(error: unknown): { code?: string; message: string } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && code !== "UND_ERR_SOCKET")
      return { code, message: errorMessage(current) };
    const cause = (current as { cause?: unknown }).cause;
    if (!cause) break;
    current = cause;
  }
  const text = errorMessage(error);
  const named = Object.keys(NETWORK_CODES).find((code) => text.includes(code));
  if (named) return { code: named, message: text };
  if (/fetch failed|bad port/i.test(text))
    return { message: errorMessage(current).replace(/^TypeError:\s*/, "") };
  return undefined;
}

/** The HTTP status of a remote transport's error (the SDK's StreamableHTTPError and SseError carry it as code). */
function httpStatusOf(error: unknown): number | undefined {
  const code = codeOf(error);
  if (
    code !== undefined &&
    code >= 100 &&
    code < 600 &&
    /^(Streamable HTTP|SSE) error/.test(errorMessage(error))
  )
    return code;
  return undefined;
}

const FIXED_TOKEN_HINT =
  'If it takes a fixed token instead, put it in the server\'s "headers": {"Authorization": "Bearer <token>"}';

/**
 * A failed OAuth step (discovery, registration, the code exchange), from the SDK's OAuth errors, which
 * carry an `errorCode` and, for an endpoint that did not answer in OAuth's terms, its raw body.
 */
function describeOAuthFailure(error: unknown): string | undefined {
  const text = errorMessage(error);
  const notOAuth = /^HTTP (\d{3}): Invalid OAuth error response/.exec(text);
  if (notOAuth)
    return `the OAuth login failed: an OAuth endpoint of the server answered HTTP ${notOAuth[1]} with something that is not OAuth, so the server may not offer an OAuth login. ${FIXED_TOKEN_HINT}`;
  if (/does not support dynamic client registration/.test(text))
    return `the OAuth login failed: the server's authorization server does not let clients register themselves. Register Keel with it (redirect URI http://127.0.0.1:<port>/callback) and give the client in the server's config: "oauth": {"clientId": "...", "callbackPort": <port>}`;
  if (/trying to load .*metadata|does not implement OAuth/.test(text))
    return `the OAuth login failed: ${clipForEcho(text, 300)}. ${FIXED_TOKEN_HINT}`;
  const code = (error as { errorCode?: unknown } | null)?.errorCode;
  if (typeof code === "string")
    return `the OAuth login failed: the authorization server answered ${code}${text ? ` (${clipForEcho(text, 300)})` : ""}`;
  return undefined;
}

export interface FailureContext {
  name: string;
  config: McpServerConfig;
  startupMs: number;
  /** A protocol error reported separately (onerror), if it says more than the thrown one. */
  protocolError?: string;
  stderrTail: string;
}

export function describeFailure(error: unknown, context: FailureContext): string {
  const { config } = context;
  const protocol =
    context.protocolError && !errorMessage(error).includes(context.protocolError)
      ? `; it also sent bad data: ${context.protocolError}`
      : "";
  const tail = context.stderrTail;
  if (codeOf(error) === REQUEST_TIMEOUT)
    return `no answer within ${Math.round(context.startupMs / 1000)} s of starting (set MCP_TIMEOUT or "startupTimeout" to wait longer)${protocol}${tail}`;
  if (config.type === "stdio") {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "ENOENT") return `could not start: the command "${config.command}" was not found${tail}`;
    if (code === "EACCES") return `could not start: the command "${config.command}" is not executable${tail}`;
    if (codeOf(error) === CONNECTION_CLOSED)
      return `the server exited or closed the connection while starting${protocol}${tail}`;
    return `${errorMessage(error)}${protocol}${tail}`;
  }
  const oauth = describeOAuthFailure(error);
  if (oauth) return oauth;
  if ((error as { name?: unknown } | null)?.name === "UnauthorizedError" || httpStatusOf(error) === 401)
    return `the server requires authorization: run \`keel mcp login ${context.name}\``;
  const network = networkCause(error);
  if (network) {
    const words = (network.code && NETWORK_CODES[network.code]) ?? network.message;
    return `could not connect to ${config.url}: ${words}`;
  }
  const status = httpStatusOf(error);
  if (status !== undefined)
    return `the server at ${config.url} answered HTTP ${status}: ${clipForEcho(errorMessage(error).replace(/^(Streamable HTTP|SSE) error: /, ""), 300)}`;
  if (codeOf(error) === CONNECTION_CLOSED)
    return `the server closed the connection while starting${protocol}`;
  return `${errorMessage(error)}${protocol}`;
}
