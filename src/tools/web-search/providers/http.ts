// JSON over HTTP for the search providers, with errors that say which provider failed and what to check.
import { ToolError } from "../../../tool/errors.ts";

export async function requestJson(
  provider: string,
  url: URL,
  init: {
    method?: "GET" | "POST";
    headers?: Record<string, string>;
    body?: unknown;
    signal: AbortSignal;
    /** What to check when the API refuses the request (401/403). */
    refusedHint?: string;
  },
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      headers: {
        accept: "application/json",
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      signal: init.signal,
    });
  } catch (error) {
    if (init.signal.aborted) throw error;
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new ToolError(
      "search_failed",
      `Could not reach the ${provider} search API at ${url.origin}: ${cause}.`,
    );
  }
  const text = await response.text();
  if (response.status === 401 || response.status === 403)
    throw new ToolError(
      "search_failed",
      `The ${provider} search API refused the request (${response.status}). ${init.refusedHint ?? "Check its API key."} ${text.slice(0, 200)}`.trim(),
    );
  if (!response.ok)
    throw new ToolError(
      "search_failed",
      `The ${provider} search API answered ${response.status} ${response.statusText}. ${text.slice(0, 300)}`.trim(),
    );
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ToolError(
      "search_failed",
      `The ${provider} search API did not return JSON: ${text.slice(0, 200)}`,
    );
  }
}

/** Search engines that understand `site:` get one allowed domain in the query; filters run afterwards anyway. */
export function withSiteOperators(
  query: string,
  allowed: readonly string[],
  blocked: readonly string[],
): string {
  const parts = [query];
  if (allowed.length === 1) parts.push(`site:${allowed[0]}`);
  for (const domain of blocked) parts.push(`-site:${domain}`);
  return parts.join(" ");
}

export function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}
