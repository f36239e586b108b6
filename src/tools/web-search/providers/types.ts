// What a search provider does: one query in, ranked hits out. Providers differ only in how they are asked.

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

export interface SearchRequest {
  query: string;
  allowedDomains: readonly string[];
  blockedDomains: readonly string[];
  maxResults: number;
  signal: AbortSignal;
}

export interface SearchProvider {
  readonly id: "brave" | "tavily" | "searxng";
  readonly displayName: string;
  search(request: SearchRequest): Promise<SearchHit[]>;
}
