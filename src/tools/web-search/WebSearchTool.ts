// WebSearch: a query sent to the configured provider (Brave, Tavily or SearXNG), results filtered by
// domain. Without a provider, an error that says how to set one up.
import { readFileSync } from "node:fs";
import * as z from "zod";
import { errorMessage, ToolError } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { filterHits, normalizeDomain } from "./domainFilter.ts";
import { webSearchToolMeta } from "./meta.ts";
import type { SearchHit } from "./providers/types.ts";
import { resolveSearchProvider, type WebSearchSettings } from "./searchConfig.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

/** What a host may put on `context.options` to choose the provider from its settings. */
export interface WebSearchContextOptions {
  webSearch?: WebSearchSettings;
}

export interface WebSearchConfig {
  /** Where provider variables are read. Default: process.env at call time. */
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxResults: number;
}

const DEFAULTS: WebSearchConfig = { timeoutMs: 30_000, maxResults: 10 };

const domainList = (what: string) => z.array(z.string().trim().min(1)).optional().describe(what);

const inputSchema = z.strictObject({
  query: z.string().trim().min(2).max(400).describe("The search query"),
  allowed_domains: domainList("Only include results from these domains"),
  blocked_domains: domainList("Never include results from these domains"),
});
export type WebSearchInput = z.infer<typeof inputSchema>;

export interface WebSearchOutput {
  query: string;
  provider: string;
  results: SearchHit[];
  /** Hits the domain filters removed. */
  filteredOut: number;
  durationMs: number;
}

function render(output: WebSearchOutput): string {
  if (output.results.length === 0)
    return `No results for "${output.query}" (via ${output.provider})${output.filteredOut > 0 ? `; ${output.filteredOut} results were outside the domain filters` : ""}. Try other words or fewer filters.`;
  const lines = [`Web search results for "${output.query}" (via ${output.provider}):`, ""];
  output.results.forEach((hit, index) => {
    lines.push(`${index + 1}. ${hit.title || hit.url}`, `   ${hit.url}`);
    if (hit.snippet) lines.push(`   ${hit.snippet.replace(/\s+/g, " ").trim()}`);
  });
  lines.push("", "REMINDER: cite the sources you use as Markdown links in your answer.");
  return lines.join("\n");
}

function normalizeDomains(list: readonly string[] | undefined, field: string): string[] {
  const domains: string[] = [];
  for (const raw of list ?? []) {
    const domain = normalizeDomain(raw);
    if (!domain)
      throw new ToolError("invalid_input", `${field}: "${raw}" is not a domain name (e.g. "example.com").`);
    domains.push(domain);
  }
  return domains;
}

export function createWebSearchTool(
  overrides: Partial<WebSearchConfig> = {},
): Tool<WebSearchInput, WebSearchOutput> {
  const config: WebSearchConfig = { ...DEFAULTS, ...overrides };
  return buildTool<WebSearchInput, WebSearchOutput>({
    ...webSearchToolMeta,
    searchHint: "search the web for current information",
    inputSchema,
    maxResultSizeChars: 50_000,
    prompt: () => PROMPT,
    description: (input) => `Search the web: ${input.query}`,
    isReadOnly: true,
    isConcurrencySafe: true,
    isOpenWorld: () => true,
    interruptBehavior: () => "cancel",
    toAutoClassifierInput: (input) => input.query,
    checkPermissions: async (input) => ({
      behavior: "passthrough",
      updatedInput: input,
      message: `WebSearch wants to search the web for "${input.query}"`,
      suggestions: [{ behavior: "allow", rule: webSearchToolMeta.name, destination: "local" }],
    }),

    validateInput(input) {
      if (input.allowed_domains?.length && input.blocked_domains?.length)
        return {
          result: false,
          errorCode: "invalid_input",
          message: "Give allowed_domains or blocked_domains, not both.",
        };
      try {
        normalizeDomains(input.allowed_domains, "allowed_domains");
        normalizeDomains(input.blocked_domains, "blocked_domains");
      } catch (error) {
        return { result: false, errorCode: "invalid_input", message: errorMessage(error) };
      }
      return { result: true };
    },

    async call(input, context) {
      const started = performance.now();
      const settings = (context.options as WebSearchContextOptions).webSearch;
      const provider = resolveSearchProvider(settings, config.env ?? process.env);
      const allowed = normalizeDomains(input.allowed_domains, "allowed_domains");
      const blocked = normalizeDomains(input.blocked_domains, "blocked_domains");
      const timeout = AbortSignal.timeout(config.timeoutMs);
      const signal = AbortSignal.any([context.abortController.signal, timeout]);
      let hits: SearchHit[];
      try {
        hits = await provider.search({
          query: input.query,
          allowedDomains: allowed,
          blockedDomains: blocked,
          maxResults: config.maxResults,
          signal,
        });
      } catch (error) {
        if (timeout.aborted && !context.abortController.signal.aborted)
          throw new ToolError(
            "timeout",
            `The ${provider.displayName} search did not answer within ${config.timeoutMs / 1000} s. Try again later.`,
          );
        throw error;
      }
      const { kept, dropped } = filterHits(hits, allowed, blocked);
      return {
        data: {
          query: input.query,
          provider: provider.displayName,
          results: kept.slice(0, config.maxResults),
          filteredOut: dropped,
          durationMs: performance.now() - started,
        },
      };
    },

    mapToolResultToToolResultBlockParam(output, toolUseId): ToolResultBlock {
      return { type: "tool_result", tool_use_id: toolUseId, content: render(output) };
    },
    renderToolUse: (input) => ({ kind: "text", text: `Search: ${input.query}` }),
    renderToolResult: (output) => ({
      kind: "list",
      title: `${output.results.length} results via ${output.provider}`,
      items: output.results.map((hit) => `${hit.title} — ${hit.url}`),
    }),
  });
}

export const WebSearchTool = createWebSearchTool();
