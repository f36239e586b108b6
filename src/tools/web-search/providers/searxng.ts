// SearXNG (self-hosted): GET <instance>/search?format=json. The instance must list "json" in search.formats.
import * as z from "zod";
import { requestJson, text, withSiteOperators } from "./http.ts";
import type { SearchProvider } from "./types.ts";

const responseSchema = z.object({
  results: z
    .array(z.object({ title: z.unknown(), url: z.unknown(), content: z.unknown() }).partial())
    .optional(),
});

export function searxngProvider(instanceUrl: string): SearchProvider {
  const base = instanceUrl.endsWith("/") ? instanceUrl : `${instanceUrl}/`;
  return {
    id: "searxng",
    displayName: "SearXNG",
    async search(request) {
      const url = new URL("search", base);
      url.searchParams.set(
        "q",
        withSiteOperators(request.query, request.allowedDomains, request.blockedDomains),
      );
      url.searchParams.set("format", "json");
      const body = responseSchema.parse(
        await requestJson("SearXNG", url, {
          signal: request.signal,
          refusedHint:
            'The instance must allow JSON output: add "json" to search.formats in its settings.yml.',
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
