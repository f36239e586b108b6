// Tavily: POST /search with a bearer key; it filters domains itself (include_domains / exclude_domains).
import * as z from "zod";
import { requestJson, text } from "./http.ts";
import type { SearchProvider } from "./types.ts";

export const TAVILY_DEFAULT_BASE_URL = "https://api.tavily.com";

const responseSchema = z.object({
  results: z
    .array(z.object({ title: z.unknown(), url: z.unknown(), content: z.unknown() }).partial())
    .optional(),
});

export function tavilyProvider(apiKey: string, baseUrl = TAVILY_DEFAULT_BASE_URL): SearchProvider {
  return {
    id: "tavily",
    displayName: "Tavily",
    async search(request) {
      const body = responseSchema.parse(
        await requestJson("Tavily", new URL("/search", baseUrl), {
          method: "POST",
          headers: { authorization: `Bearer ${apiKey}` },
          body: {
            query: request.query,
            max_results: Math.min(20, request.maxResults),
            search_depth: "basic",
            ...(request.allowedDomains.length > 0 ? { include_domains: request.allowedDomains } : {}),
            ...(request.blockedDomains.length > 0 ? { exclude_domains: request.blockedDomains } : {}),
          },
          signal: request.signal,
        }),
      );
      return (body.results ?? []).map((hit) => ({
        title: text(hit.title),
        url: text(hit.url),
        snippet: text(hit.content),
      }));
    },
  };
}
