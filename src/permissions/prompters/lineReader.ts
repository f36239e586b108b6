// Lines from a stream, one at a time, without losing lines that arrive before they are asked for
// (a second readline interface would drop what the first had buffered).
import { createInterface, type Interface } from "node:readline";
import type { Readable } from "node:stream";

export class LineReader {
  readonly #rl: Interface;
  readonly #lines: string[] = [];
  readonly #waiting: Array<(line: string | undefined) => void> = [];
  #closed = false;

  constructor(input: Readable) {
    this.#rl = createInterface({ input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
    this.#rl.on("line", (line) => {
      const waiter = this.#waiting.shift();
      if (waiter) waiter(line);
      else this.#lines.push(line);
    });
    this.#rl.on("close", () => {
      this.#closed = true;
      for (const waiter of this.#waiting.splice(0)) waiter(undefined);
    });
  }

  /** The next line; undefined when the input ended or the signal fired. */
  next(signal?: AbortSignal): Promise<string | undefined> {
    const buffered = this.#lines.shift();
    if (buffered !== undefined) return Promise.resolve(buffered);
    if (this.#closed || signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter = (line: string | undefined) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(line);
      };
      const onAbort = () => {
        const index = this.#waiting.indexOf(waiter);
        if (index !== -1) this.#waiting.splice(index, 1);
        resolve(undefined);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  close(): void {
    this.#rl.close();
  }
}
