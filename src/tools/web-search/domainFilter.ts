// allowed_domains / blocked_domains: a hit's host must equal a listed domain or be a subdomain of it,
// compared by labels (the same rule as WebFetch(domain:...)), never by string prefix.
import { hostMatchesDomain, hostOfUrl, normalizeHost } from "../../permissions/matchers/webFetch.ts";
import type { SearchHit } from "./providers/types.ts";

/** A domain as the user may write it ("Example.com", "https://example.com/", "*.example.com"), or undefined. */
export function normalizeDomain(raw: string): string | undefined {
  let text = raw.trim().toLowerCase();
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, "").replace(/^\*\./, "");
  text = text.replace(/[/?#].*$/, "");
  if (text === "" || text.includes("*")) return undefined;
  return normalizeHost(text);
}

export function hitHost(hit: SearchHit): string | undefined {
  const host = hostOfUrl(hit.url);
  return host === undefined ? undefined : host.toLowerCase();
}

function coveredBy(host: string, domains: readonly string[]): boolean {
  return domains.some((domain) => hostMatchesDomain(host, domain));
}

/** Hits kept, and how many were dropped. A hit without a readable http(s) URL is dropped. */
export function filterHits(
  hits: readonly SearchHit[],
  allowed: readonly string[],
  blocked: readonly string[],
): { kept: SearchHit[]; dropped: number } {
  const kept: SearchHit[] = [];
  for (const hit of hits) {
    const host = hitHost(hit);
    if (host === undefined || !/^https?:/i.test(hit.url)) continue;
    if (allowed.length > 0 && !coveredBy(host, allowed)) continue;
    if (blocked.length > 0 && coveredBy(host, blocked)) continue;
    kept.push(hit);
  }
  return { kept, dropped: hits.length - kept.length };
}
