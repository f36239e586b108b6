// Model API failures as data: a code, whether a retry may help, and a message that tells a person what
// to do next. SDK errors are classified here once, so no stack trace ever reaches the user.

export type ProviderErrorCode =
  | "auth"
  | "permission"
  | "model_not_found"
  | "unreachable"
  | "timeout"
  | "rate_limited"
  | "overloaded"
  | "server_error"
  | "bad_request"
  | "context_too_long"
  | "aborted"
  | "stream_error"
  | "config";

export class ProviderError extends Error {
  readonly code: ProviderErrorCode;
  readonly retryable: boolean;
  readonly status: number | undefined;
  /** Server's retry-after, when it sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(
    code: ProviderErrorCode,
    message: string,
    options: { retryable?: boolean; status?: number; retryAfterMs?: number } = {},
  ) {
    super(message);
    this.name = "ProviderError";
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

export interface ErrorSite {
  /** "Anthropic API", "OpenAI-compatible endpoint". */
  service: string;
  baseURL: string;
  model: string;
  /** The environment variable holding the key, for the fix. */
  keyVariable: string;
}

interface SdkErrorShape {
  name?: string;
  status?: number;
  message?: string;
  headers?: { get?: (name: string) => string | null } | Record<string, string>;
  error?: unknown;
  type?: string;
  cause?: unknown;
}

function header(error: SdkErrorShape, name: string): string | undefined {
  const headers = error.headers;
  if (!headers) return undefined;
  if (typeof headers.get === "function") return headers.get(name) ?? undefined;
  const value = (headers as Record<string, string>)[name];
  return typeof value === "string" ? value : undefined;
}

function retryAfterMs(error: SdkErrorShape): number | undefined {
  const ms = header(error, "retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const seconds = header(error, "retry-after");
  if (!seconds) return undefined;
  if (Number.isFinite(Number(seconds))) return Number(seconds) * 1000;
  const date = Date.parse(seconds);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The server's own words: `{error: {type, message}}` (Anthropic) or `{error: {message, code}}` (OpenAI). */
function serverDetail(error: SdkErrorShape): { type?: string; message?: string; code?: string } {
  const body = error.error as Record<string, unknown> | undefined;
  const inner = (body && typeof body.error === "object" ? body.error : body) as
    | Record<string, unknown>
    | undefined;
  const pick = (key: string) => (typeof inner?.[key] === "string" ? (inner[key] as string) : undefined);
  return {
    ...((pick("type") ?? error.type) ? { type: pick("type") ?? error.type } : {}),
    ...(pick("message") ? { message: pick("message") } : {}),
    ...(pick("code") ? { code: pick("code") } : {}),
  };
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The SDKs' error classes do not all set `name`; their constructor names are stable. */
function kindOf(error: unknown): string {
  const constructorName = (error as { constructor?: { name?: string } } | null)?.constructor?.name;
  if (constructorName && constructorName !== "Error" && constructorName !== "Object") return constructorName;
  return (error as SdkErrorShape | null)?.name ?? "";
}

/** The innermost cause's message ("bad port", "getaddrinfo ENOTFOUND x"), for the person. */
function deepestMessage(error: unknown): string | undefined {
  let current: unknown = error;
  let message: string | undefined;
  for (let depth = 0; depth < 5 && current; depth++) {
    const text = (current as { message?: unknown }).message;
    if (typeof text === "string" && text) message = text;
    current = (current as { cause?: unknown }).cause;
  }
  return message;
}

function abortLike(kind: string): boolean {
  return kind === "APIUserAbortError" || kind === "AbortError";
}

/** Turns anything an SDK throws into a ProviderError with a message for a person. */
export function classifyProviderError(error: unknown, site: ErrorSite): ProviderError {
  if (error instanceof ProviderError) return error;
  const shape = (error ?? {}) as SdkErrorShape;
  const kind = kindOf(error);
  if (abortLike(kind)) return new ProviderError("aborted", "The request was interrupted.");
  const detail = serverDetail(shape);
  const said = detail.message ? ` The server said: ${detail.message}` : "";
  const status = shape.status;
  const retryAfter = retryAfterMs(shape);
  const options = {
    ...(status ? { status } : {}),
    ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
  };
  if (kind === "APIConnectionTimeoutError")
    return new ProviderError(
      "timeout",
      `The ${site.service} at ${site.baseURL} did not answer in time. Check the network, or retry.`,
      { retryable: true },
    );
  if (kind === "APIConnectionError" || (status === undefined && causeCode(error))) {
    const code = causeCode(error) ?? deepestMessage(error);
    return new ProviderError(
      "unreachable",
      `Could not reach the ${site.service} at ${site.baseURL}${code ? ` (${code})` : ""}. Check --base-url and that the server is running and reachable.`,
      { retryable: code === "ECONNRESET" || code === "ETIMEDOUT" || code === "EPIPE" },
    );
  }
  if (detail.type === "overloaded_error" || status === 529)
    return new ProviderError("overloaded", `The ${site.service} is overloaded.${said}`, {
      retryable: true,
      ...options,
    });
  if (status === 401)
    return new ProviderError(
      "auth",
      `The ${site.service} rejected the credentials (401). Set ${site.keyVariable} to a valid API key.${said}`,
      options,
    );
  if (status === 403)
    return new ProviderError(
      "permission",
      `The ${site.service} refused access (403): the key may not be allowed to use model "${site.model}".${said}`,
      options,
    );
  if (status === 404 || detail.code === "model_not_found")
    return new ProviderError(
      "model_not_found",
      detail.code === "model_not_found" || /model/i.test(said)
        ? `The ${site.service} does not know model "${site.model}" (404). Pick another with --model.${said}`
        : // A 404 that names no model is most often a wrong path: Ollama, vLLM and friends serve under /v1.
          `The ${site.service} at ${site.baseURL} answered 404 (not found). Check --base-url (OpenAI-compatible servers usually end in /v1), or pick another model with --model.${said}`,
      options,
    );
  if (status === 429)
    return new ProviderError("rate_limited", `The ${site.service} is rate limiting requests (429).${said}`, {
      retryable: true,
      ...options,
    });
  if (status === 413 || /prompt is too long|context length|maximum context|too many tokens/i.test(said))
    return new ProviderError(
      "context_too_long",
      `The conversation is too long for model "${site.model}".${said} Run /compact or start a new session.`,
      options,
    );
  if (status === 408 || status === 409 || (status !== undefined && status >= 500))
    return new ProviderError("server_error", `The ${site.service} failed (${status}).${said}`, {
      retryable: true,
      ...options,
    });
  if (status !== undefined && status >= 400)
    return new ProviderError(
      "bad_request",
      `The ${site.service} rejected the request (${status}).${said}`,
      options,
    );
  if (status === undefined && detail.type)
    return new ProviderError(
      "stream_error",
      `The ${site.service} reported an error: ${detail.type}.${said}`,
      {
        retryable: detail.type === "api_error",
      },
    );
  const text = shape.message ?? String(error);
  return new ProviderError("stream_error", `The ${site.service} stream failed: ${text}`, { retryable: true });
}
