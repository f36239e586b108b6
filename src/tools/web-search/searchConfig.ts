// Which search provider WebSearch uses: the host's settings (`context.options.webSearch`) first, then
// the environment. Without one, a ToolError that says exactly how to set one up.
import { ToolError } from "../../tool/errors.ts";
import { BRAVE_DEFAULT_BASE_URL, braveProvider } from "./providers/brave.ts";
import { searxngProvider } from "./providers/searxng.ts";
import { TAVILY_DEFAULT_BASE_URL, tavilyProvider } from "./providers/tavily.ts";
import type { SearchProvider } from "./providers/types.ts";

export const SEARCH_PROVIDER_IDS = ["brave", "tavily", "searxng"] as const;
export type SearchProviderId = (typeof SEARCH_PROVIDER_IDS)[number];

/** What settings may put on `context.options.webSearch`. */
export interface WebSearchSettings {
  provider?: SearchProviderId;
  apiKey?: string;
  /** The API's base URL (a proxy, a test server) or, for SearXNG, the instance URL. */
  baseUrl?: string;
}

export const SEARCH_SETUP_HELP = [
  "WebSearch has no search provider configured. Set one up with environment variables (or the webSearch settings):",
  "- Brave Search: BRAVE_API_KEY=<key> (get one at https://api-dashboard.search.brave.com)",
  "- Tavily: TAVILY_API_KEY=<key> (https://app.tavily.com)",
  '- SearXNG (self-hosted): SEARXNG_URL=http://localhost:8888 (the instance must allow "json" in search.formats)',
  "With several configured, choose with KEEL_SEARCH_PROVIDER=brave|tavily|searxng. Until then, tell the user web search is unavailable, or use WebFetch on a known URL.",
].join("\n");

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value.trim() : undefined;
}

function keyFor(id: SearchProviderId, env: NodeJS.ProcessEnv): string | undefined {
  if (id === "brave") return nonEmpty(env.BRAVE_API_KEY) ?? nonEmpty(env.BRAVE_SEARCH_API_KEY);
  if (id === "tavily") return nonEmpty(env.TAVILY_API_KEY);
  return nonEmpty(env.SEARXNG_URL);
}

function build(
  id: SearchProviderId,
  secret: string | undefined,
  baseUrl: string | undefined,
): SearchProvider {
  const missing = (what: string) =>
    new ToolError(
      "no_search_provider",
      `The ${id} search provider is selected but ${what} is not set.\n\n${SEARCH_SETUP_HELP}`,
    );
  if (id === "searxng") {
    const url = baseUrl ?? secret;
    if (!url) throw missing("SEARXNG_URL");
    return searxngProvider(url);
  }
  if (!secret) throw missing(id === "brave" ? "BRAVE_API_KEY" : "TAVILY_API_KEY");
  return id === "brave"
    ? braveProvider(secret, baseUrl ?? BRAVE_DEFAULT_BASE_URL)
    : tavilyProvider(secret, baseUrl ?? TAVILY_DEFAULT_BASE_URL);
}

function parseProviderId(value: string, origin: string): SearchProviderId {
  const id = value.trim().toLowerCase();
  if ((SEARCH_PROVIDER_IDS as readonly string[]).includes(id)) return id as SearchProviderId;
  throw new ToolError(
    "no_search_provider",
    `${origin} names an unknown search provider "${value}". Use one of: ${SEARCH_PROVIDER_IDS.join(", ")}.`,
  );
}

export function resolveSearchProvider(
  settings: WebSearchSettings | undefined,
  env: NodeJS.ProcessEnv,
): SearchProvider {
  const baseUrl = nonEmpty(settings?.baseUrl) ?? nonEmpty(env.KEEL_SEARCH_BASE_URL);
  if (settings?.provider) {
    const id = parseProviderId(settings.provider, "The webSearch setting");
    return build(id, nonEmpty(settings.apiKey) ?? keyFor(id, env), baseUrl);
  }
  const named = nonEmpty(env.KEEL_SEARCH_PROVIDER);
  if (named) {
    const id = parseProviderId(named, "KEEL_SEARCH_PROVIDER");
    return build(id, keyFor(id, env), baseUrl);
  }
  const available = SEARCH_PROVIDER_IDS.find((id) => keyFor(id, env) !== undefined);
  if (!available) throw new ToolError("no_search_provider", SEARCH_SETUP_HELP);
  return build(available, keyFor(available, env), baseUrl);
}
