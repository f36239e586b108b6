// WebFetch's cache: pages by URL for 15 minutes, least recently used first out past a size budget.

export interface CachedPage {
  finalUrl: string;
  status: number;
  statusText: string;
  contentType: string;
  bytes: number;
  markdown: string;
  /** False when only the beginning of a long page was converted. */
  complete: boolean;
  /** Fetched under a `WebFetch(domain:...)` rule that opened private addresses for its host. */
  privateAllowed: boolean;
}

interface Entry {
  page: CachedPage;
  expiresAt: number;
  size: number;
}

export class PageCache {
  readonly #entries = new Map<string, Entry>();
  readonly #ttlMs: number;
  readonly #maxChars: number;
  #size = 0;

  constructor(ttlMs: number, maxChars = 50_000_000) {
    this.#ttlMs = ttlMs;
    this.#maxChars = maxChars;
  }

  get(url: string, now = Date.now()): CachedPage | undefined {
    const entry = this.#entries.get(url);
    if (!entry) return undefined;
    this.#entries.delete(url);
    if (entry.expiresAt <= now) {
      this.#size -= entry.size;
      return undefined;
    }
    this.#entries.set(url, entry);
    return entry.page;
  }

  set(url: string, page: CachedPage, now = Date.now()): void {
    if (this.#ttlMs <= 0) return;
    const size = page.markdown.length + url.length;
    if (size > this.#maxChars) return;
    const old = this.#entries.get(url);
    if (old) {
      this.#entries.delete(url);
      this.#size -= old.size;
    }
    this.#entries.set(url, { page, expiresAt: now + this.#ttlMs, size });
    this.#size += size;
    for (const [key, entry] of this.#entries) {
      if (this.#size <= this.#maxChars) break;
      this.#entries.delete(key);
      this.#size -= entry.size;
    }
  }

  clear(): void {
    this.#entries.clear();
    this.#size = 0;
  }
}
