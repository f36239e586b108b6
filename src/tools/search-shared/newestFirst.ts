// File lists streamed from rg (`--null`: NUL after each path) are stat'ed while rg is still walking,
// then ordered newest-modified first. Only the page asked for is fully sorted: the rest is cut at
// an mtime threshold, since sorting 200,000 paths costs more than the walk.
import { statSync } from "node:fs";

export interface FilePage {
  /** Absolute paths, newest-modified first, ties by path. */
  paths: string[];
  /** How many files matched in all. */
  total: number;
}

/** Joins a folder and a path rg printed relative to it ("./a/b" or "a/b"). */
export function joinRelative(root: string, relativePath: string): string {
  const rel = relativePath.startsWith("./") ? relativePath.slice(2) : relativePath;
  return root.endsWith("/") ? root + rel : `${root}/${rel}`;
}

export class MtimeCollector {
  readonly #root: string;
  readonly #paths: string[] = [];
  #mtimes = new Float64Array(1024);
  #rest: Buffer | undefined;

  readonly #accept: ((relativePath: string) => boolean) | undefined;

  /** `accept` sees each path as rg printed it, without "./"; rejected paths are not stat'ed or counted. */
  constructor(root: string, accept?: (relativePath: string) => boolean) {
    this.#root = root;
    this.#accept = accept;
  }

  get count(): number {
    return this.#paths.length;
  }

  /** Takes a chunk of rg's output; complete records are stat'ed now, a partial one waits for the next chunk. */
  push(chunk: Buffer): void {
    const data = this.#rest ? Buffer.concat([this.#rest, chunk]) : chunk;
    let start = 0;
    for (let end = data.indexOf(0, start); end !== -1; end = data.indexOf(0, start)) {
      if (end > start) this.add(data.toString("utf8", start, end));
      start = end + 1;
    }
    this.#rest = start < data.length ? data.subarray(start) : undefined;
  }

  /** rg ends every path with NUL: anything after the last one is a path cut short (output capped), dropped. */
  finish(): void {
    this.#rest = undefined;
  }

  add(printedPath: string): void {
    const relativePath = printedPath.startsWith("./") ? printedPath.slice(2) : printedPath;
    if (this.#accept && !this.#accept(relativePath)) return;
    const absolute = joinRelative(this.#root, relativePath);
    const index = this.#paths.length;
    if (index === this.#mtimes.length) {
      const grown = new Float64Array(this.#mtimes.length * 2);
      grown.set(this.#mtimes);
      this.#mtimes = grown;
    }
    this.#paths.push(absolute);
    this.#mtimes[index] = mtimeOf(absolute);
  }

  /** `limit` paths from `offset` on, newest first; limit undefined means all. */
  page(offset: number, limit: number | undefined): FilePage {
    const total = this.#paths.length;
    const wanted = limit === undefined ? total : Math.min(total, offset + limit);
    const order = this.#topIndices(wanted);
    const end = limit === undefined ? order.length : Math.min(order.length, offset + limit);
    return { paths: order.slice(offset, end).map((index) => this.#paths[index]!), total };
  }

  #topIndices(wanted: number): number[] {
    const total = this.#paths.length;
    if (wanted <= 0) return [];
    const mtimes = this.#mtimes.subarray(0, total);
    let candidates: number[];
    if (wanted * 4 >= total) {
      candidates = Array.from({ length: total }, (_, index) => index);
    } else {
      // Everything at or above the wanted-th newest mtime; ties may add a few extra candidates.
      const threshold = Float64Array.from(mtimes).sort()[total - wanted] ?? Number.NEGATIVE_INFINITY;
      candidates = [];
      for (let index = 0; index < total; index++) if (mtimes[index]! >= threshold) candidates.push(index);
    }
    const paths = this.#paths;
    candidates.sort((a, b) => mtimes[b]! - mtimes[a]! || compareStrings(paths[a]!, paths[b]!));
    return candidates.slice(0, wanted);
  }
}

/** A file gone or unreadable since rg listed it sorts last rather than failing the search. */
function mtimeOf(path: string): number {
  try {
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  } catch {
    return 0;
  }
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
