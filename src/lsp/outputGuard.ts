// What a language server writes is bounded: its stdout passes through a meter that stops a server
// sending more than a budget of bytes in a time window (a flood would fill memory and starve the event
// loop), and only the tail of its stderr is kept, for error messages.
import { Transform, type TransformCallback } from "node:stream";

export interface FloodLimit {
  /** Most bytes accepted within one window. */
  maxBytes: number;
  windowMs: number;
}

/** 64 MB in 10 s: far above what a real server sends (a large findReferences is a few MB). */
export const DEFAULT_FLOOD_LIMIT: FloodLimit = { maxBytes: 64 * 1024 * 1024, windowMs: 10_000 };

/** Passes bytes through until the budget of a window is spent, then calls onFlood once and stops. */
export class FloodMeter extends Transform {
  readonly #limit: FloodLimit;
  readonly #onFlood: (bytes: number) => void;
  #windowStart = Date.now();
  #bytes = 0;
  #tripped = false;

  constructor(limit: FloodLimit, onFlood: (bytes: number) => void) {
    super();
    this.#limit = limit;
    this.#onFlood = onFlood;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.#tripped) {
      done();
      return;
    }
    const now = Date.now();
    if (now - this.#windowStart > this.#limit.windowMs) {
      this.#windowStart = now;
      this.#bytes = 0;
    }
    this.#bytes += chunk.length;
    if (this.#bytes > this.#limit.maxBytes) {
      this.#tripped = true;
      this.#onFlood(this.#bytes);
      done();
      return;
    }
    done(null, chunk);
  }
}

/** The last `maxChars` characters written to a stream (a server's stderr), kept without growing. */
export class TextTail {
  readonly #maxChars: number;
  #text = "";

  constructor(maxChars = 4_000) {
    this.#maxChars = maxChars;
  }

  push(chunk: Buffer | string): void {
    const text = this.#text + String(chunk);
    this.#text = text.length > this.#maxChars ? text.slice(-this.#maxChars) : text;
  }

  /** The last few non-empty lines, for an error message. */
  lastLines(count = 5): string {
    return this.#text
      .split(/\r?\n/)
      .filter((line) => line.trim() !== "")
      .slice(-count)
      .join("\n");
  }
}
