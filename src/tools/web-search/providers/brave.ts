// Brave Search API: GET /res/v1/web/search with the key in X-Subscription-Token.
import * as z from "zod";
import { requestJson, text, withSiteOperators } from "./http.ts";
import type { SearchProvider } from "./types.ts";

export const BRAVE_DEFAULT_BASE_URL = "https://api.search.brave.com";

const responseSchema = z.object({
  web: z
    .object({
      results: z.array(
        z.object({ title: z.unknown(), url: z.unknown(), description: z.unknown() }).partial(),
      ),
    })
    .optional(),
});

export function braveProvider(apiKey: string, baseUrl = BRAVE_DEFAULT_BASE_URL): SearchProvider {
  return {
    id: "brave",
    displayName: "Brave",
    async search(request) {
      const url = new URL("/res/v1/web/search", baseUrl);
      url.searchParams.set(
        "q",
        withSiteOperators(request.query, request.allowedDomains, request.blockedDomains),
      );
      url.searchParams.set("count", String(Math.min(20, request.maxResults)));
      const body = responseSchema.parse(
        await requestJson("Brave", url, {
          headers: { "x-subscription-token": apiKey },
          signal: request.signal,
        }),
      );
      return (body.web?.results ?? []).map((hit) => ({
        title: text(hit.title),
        url: text(hit.url),
        snippet: text(hit.description).replace(/<\/?strong>/g, ""),
      }));
    },
  };
}
