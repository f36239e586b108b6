// WebFetch: a URL's content as Markdown (or a configured model's answer about it), with SSRF guards,
// size, time and redirect limits, and a 15-minute cache.

import { readFileSync } from "node:fs";
import * as z from "zod";
import { findContentAllowRule } from "../../permissions/engine.ts";
import { webFetchRuleMatcher } from "../../permissions/matchers/webFetch.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { errorMessage, ToolError } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { bareHost, fetchPage, privateAddressRefusal, upgradeToHttps } from "./fetchPage.ts";
import { PrivateAddressError } from "./guardedLookup.ts";
import { ResponseTooLargeError } from "./httpGet.ts";
import { webFetchToolMeta } from "./meta.ts";
import { type CachedPage, PageCache } from "./pageCache.ts";
import { bodyToMarkdown } from "./pageContent.ts";
import { isPrivateHostLiteral } from "./privateAddress.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

/**
 * Applies the prompt to a page with a model. A host offers one as `context.options.webFetchSummarizer`
 * (the agent sets it to a small, fast model); without it the model gets the Markdown itself.
 */
export type WebFetchSummarizer = (markdown: string, prompt: string, signal: AbortSignal) => Promise<string>;
export interface WebFetchContextOptions {
  webFetchSummarizer?: WebFetchSummarizer;
}

export interface WebFetchConfig {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  cacheTtlMs: number;
  /** Markdown handed to the model when no summarizer applies the prompt. */
  maxMarkdownChars: number;
  /** Markdown handed to the summarizer. */
  maxSummarizerInputChars: number;
  userAgent: string;
}

export const WEB_FETCH_DEFAULTS: WebFetchConfig = {
  timeoutMs: 60_000,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 10,
  cacheTtlMs: 15 * 60_000,
  maxMarkdownChars: 45_000,
  maxSummarizerInputChars: 100_000,
  userAgent: "Keel-WebFetch/0.1",
};

const inputSchema = z.strictObject({
  url: z.string().trim().min(1).max(2000).describe("The URL to fetch (http or https)"),
  prompt: z.string().min(1).describe("What to extract from the page"),
});
export type WebFetchInput = z.infer<typeof inputSchema>;

export type WebFetchOutput =
  | {
      kind: "page";
      url: string;
      finalUrl: string;
      status: number;
      statusText: string;
      contentType: string;
      bytes: number;
      prompt: string;
      /** The summarizer's answer, or the Markdown (cut to fit). */
      result: string;
      summarized: boolean;
      truncated: boolean;
      /** Length of the converted Markdown (of the page's beginning when `complete` is false). */
      markdownChars: number;
      complete: boolean;
      cached: boolean;
      durationMs: number;
      note?: string;
    }
  | {
      kind: "redirect";
      url: string;
      redirectUrl: string;
      status: number;
      statusText: string;
      prompt: string;
    };

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Only a `WebFetch(domain:...)` allow rule naming the host opens private addresses; a blanket allow does not. */
async function hostAllowedByRule(tool: Tool, context: ToolUseContext, host: string): Promise<boolean> {
  const url = `http://${host.includes(":") ? `[${host}]` : host}/`;
  return (await findContentAllowRule(tool, { url }, context)) !== undefined;
}

function renderPage(output: Extract<WebFetchOutput, { kind: "page" }>): string {
  const facts = [
    `${output.status} ${output.statusText}`.trim(),
    output.contentType || "no content type",
    `${output.bytes} bytes`,
  ];
  if (output.cached) facts.push("from cache");
  const lines = [`Fetched ${output.finalUrl} (${facts.join(", ")}).`];
  if (output.note) lines.push(output.note);
  if (!output.summarized)
    lines.push(
      `No model is configured to apply the prompt, so here is the page as Markdown. Use it to answer: ${output.prompt}`,
    );
  lines.push("", output.result);
  if (output.truncated && output.summarized)
    lines.push("", "[The page is long: the answer above is based on its beginning only.]");
  else if (output.truncated)
    lines.push(
      "",
      output.complete
        ? `[Truncated: the page has ${output.markdownChars} characters of Markdown; only the first ${output.result.length} are shown.]`
        : `[Truncated: the page (${output.bytes} bytes) is longer than what is shown; only its beginning was converted.]`,
    );
  return lines.join("\n");
}

export function renderWebFetchOutput(output: WebFetchOutput): string {
  if (output.kind === "page") return renderPage(output);
  return [
    "REDIRECT DETECTED: the URL redirects to a different host, and WebFetch does not follow that on its own.",
    "",
    `Original URL: ${output.url}`,
    `Redirect URL: ${output.redirectUrl}`,
    `Status: ${output.status} ${output.statusText}`.trimEnd(),
    "",
    `To read it, call WebFetch again with url "${output.redirectUrl}" and the same prompt.`,
  ].join("\n");
}

function mapFetchError(
  error: unknown,
  url: URL,
  config: WebFetchConfig,
  timedOut: boolean,
  callerAborted: boolean,
): unknown {
  if (error instanceof ToolError) return error;
  if (callerAborted) return new ToolError("aborted", "WebFetch was interrupted.");
  if (timedOut)
    return new ToolError(
      "timeout",
      `WebFetch gave up on ${url.href} after ${config.timeoutMs / 1000} s without a complete response. The server may be slow or down; try again later or use another source.`,
    );
  const cause = (error as { cause?: unknown }).cause ?? error;
  if (cause instanceof PrivateAddressError) return privateAddressRefusal(cause.host, cause.address);
  if (error instanceof ResponseTooLargeError)
    return new ToolError(
      "too_large",
      `${url.href} is larger than WebFetch's ${config.maxBytes}-byte limit (${error.message}); nothing was returned. Look for a smaller page, a specific section, or a raw/text version.`,
    );
  return new ToolError("fetch_failed", `Could not fetch ${url.href}: ${errorMessage(error)}`);
}

async function applyPrompt(
  page: CachedPage,
  prompt: string,
  context: ToolUseContext,
  config: WebFetchConfig,
  signal: AbortSignal,
): Promise<{ result: string; summarized: boolean; truncated: boolean; note?: string }> {
  const summarize = (context.options as WebFetchContextOptions).webFetchSummarizer;
  if (summarize) {
    try {
      const input = page.markdown.slice(0, config.maxSummarizerInputChars);
      const truncated = input.length < page.markdown.length || !page.complete;
      return { result: await summarize(input, prompt, signal), summarized: true, truncated };
    } catch (error) {
      if (signal.aborted) throw error;
      const note = `The summarizing model failed (${errorMessage(error)}), so the page itself follows.`;
      return { ...cut(page, config), summarized: false, note };
    }
  }
  return { ...cut(page, config), summarized: false };
}

function cut(page: CachedPage, config: WebFetchConfig): { result: string; truncated: boolean } {
  if (page.markdown.length <= config.maxMarkdownChars)
    return { result: page.markdown, truncated: !page.complete };
  return { result: page.markdown.slice(0, config.maxMarkdownChars), truncated: true };
}

export function createWebFetchTool(
  overrides: Partial<WebFetchConfig> = {},
): Tool<WebFetchInput, WebFetchOutput> {
  const config: WebFetchConfig = { ...WEB_FETCH_DEFAULTS, ...overrides };
  const cache = new PageCache(config.cacheTtlMs);

  async function load(url: URL, context: ToolUseContext, signal: AbortSignal, timeout: AbortSignal) {
    try {
      let privateAllowed = false;
      const outcome = await fetchPage(url, config, signal, async (host) => {
        const allowed = await hostAllowedByRule(tool, context, host);
        privateAllowed ||= allowed;
        return allowed;
      });
      if (outcome.kind === "redirect") return outcome;
      const { response } = outcome;
      const contentType = String(response.headers["content-type"] ?? "");
      if (response.status >= 400) {
        const snippet = response.body.subarray(0, 500).toString("utf8").trim();
        throw new ToolError(
          "http_error",
          `${outcome.finalUrl} answered ${response.status} ${response.statusText}.${snippet ? ` The start of the body: ${snippet}` : ""}`,
        );
      }
      const wanted = Math.max(config.maxMarkdownChars, config.maxSummarizerInputChars);
      const { markdown, complete } = bodyToMarkdown(contentType, response.body, outcome.finalUrl, wanted);
      const page: CachedPage = {
        finalUrl: outcome.finalUrl,
        status: response.status,
        statusText: response.statusText,
        contentType,
        bytes: response.body.length,
        markdown,
        complete,
        privateAllowed,
      };
      cache.set(url.href, page);
      return page;
    } catch (error) {
      throw mapFetchError(error, url, config, timeout.aborted, context.abortController.signal.aborted);
    }
  }

  /** A page fetched under a rule opening private addresses is served only to a session with that rule. */
  async function usableCacheEntry(url: URL, context: ToolUseContext): Promise<CachedPage | undefined> {
    const page = cache.get(url.href);
    if (!page?.privateAllowed) return page;
    return (await hostAllowedByRule(tool, context, bareHost(url))) ? page : undefined;
  }

  const tool: Tool<WebFetchInput, WebFetchOutput> = buildTool<WebFetchInput, WebFetchOutput>({
    ...webFetchToolMeta,
    ruleMatcher: webFetchRuleMatcher,
    searchHint: "fetch a web page (URL) and read it as markdown",
    inputSchema,
    maxResultSizeChars: 50_000,
    prompt: () => PROMPT,
    description: (input) => `Fetch ${input.url}`,
    isReadOnly: true,
    isConcurrencySafe: true,
    isOpenWorld: () => true,
    interruptBehavior: () => "cancel",
    toAutoClassifierInput: (input) => `${input.url}: ${input.prompt}`,

    validateInput(input) {
      const url = parseUrl(input.url);
      if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "")
        return {
          result: false,
          errorCode: "invalid_input",
          message: `"${input.url}" is not an http(s) URL. Give a full URL such as https://example.com/page.`,
        };
      if (url.username || url.password)
        return {
          result: false,
          errorCode: "invalid_input",
          message: "URLs with a user name or password are refused: WebFetch does not send credentials.",
        };
      return { result: true };
    },

    async checkPermissions(input, context) {
      const url = parseUrl(input.url);
      if (!url) return { behavior: "passthrough", updatedInput: input };
      const host = bareHost(url);
      if (isPrivateHostLiteral(host) && !(await hostAllowedByRule(tool, context, host))) {
        const refusal = privateAddressRefusal(host, host);
        return {
          behavior: "deny",
          message: refusal.message,
          decisionReason: { type: "tool", reason: refusal.message, check: "private-address" },
        };
      }
      return {
        behavior: "passthrough",
        updatedInput: input,
        message: `WebFetch wants to fetch ${url.href}`,
        suggestions: [{ behavior: "allow", rule: `WebFetch(domain:${host})`, destination: "local" }],
      };
    },

    async call(input, context) {
      const started = performance.now();
      const parsed = parseUrl(input.url);
      if (!parsed) throw new ToolError("invalid_input", `"${input.url}" is not a URL.`);
      const url = upgradeToHttps(parsed);
      const timeout = AbortSignal.timeout(config.timeoutMs);
      const signal = AbortSignal.any([context.abortController.signal, timeout]);
      const hit = await usableCacheEntry(url, context);
      const loaded = hit ?? (await load(url, context, signal, timeout));
      if ("kind" in loaded) return { data: { ...loaded, prompt: input.prompt } };
      const applied = await applyPrompt(loaded, input.prompt, context, config, signal);
      return {
        data: {
          kind: "page",
          url: url.href,
          finalUrl: loaded.finalUrl,
          status: loaded.status,
          statusText: loaded.statusText,
          contentType: loaded.contentType,
          bytes: loaded.bytes,
          prompt: input.prompt,
          ...applied,
          markdownChars: loaded.markdown.length,
          complete: loaded.complete,
          cached: hit !== undefined,
          durationMs: performance.now() - started,
        },
      };
    },

    mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
      return { type: "tool_result", tool_use_id: toolUseId, content: renderWebFetchOutput(output) };
    },
    renderToolUse: (input) => ({ kind: "text", text: `Fetch ${input.url}` }),
    renderToolResult: (output) =>
      output.kind === "page"
        ? {
            kind: "text",
            text: `Fetched ${output.finalUrl} (${output.bytes} bytes${output.cached ? ", cached" : ""})`,
          }
        : { kind: "text", text: `Redirects to ${output.redirectUrl} (not followed)` },
  });
  return tool;
}

export const WebFetchTool = createWebFetchTool();
