// The decision server's protocol: newline-delimited JSON over a Unix socket, one request per connection.
// The client sends one request and half-closes. For a decision the server answers at once with
// `accepted`, then `alive` while it works, then `done` (or `declined`); the client then sends `ack`
// before it uses the answer. Only an acknowledged answer's side effects (audit records) are kept: a
// client that gave up and decided itself leaves no second record.
import type { GivenStdin, TtyFlags } from "../io.ts";

export type { GivenStdin, TtyFlags };

export const PROTOCOL_VERSION = 2;

/** A request is bounded: an event over the hook's limit is never sent (the caller says so itself). */
export const MAX_REQUEST_BYTES = 20 * 1024 * 1024;

/** How often a working server says it is alive; a client that hears nothing for ALIVE_TIMEOUT_MS gives up. */
export const ALIVE_EVERY_MS = 250;
export const ALIVE_TIMEOUT_MS = 1_500;

/** The commands a server decides: one hook event, one `keel check`. */
export type ServedCommand = "hook" | "check";

export type ServerRequest =
  | {
      type: "decide";
      version: number;
      build: string;
      command: ServedCommand;
      argv: string[];
      cwd: string;
      env: Record<string, string>;
      tty: TtyFlags;
      stdin?: GivenStdin;
    }
  | { type: "status"; version: number }
  | { type: "stop"; version: number };

export type ServerReply =
  | { type: "accepted" }
  | { type: "alive" }
  | { type: "done"; stdout: string; stderr: string; exitCode: number }
  /** The server will not answer this one (another build, an unreadable request, it failed): decide locally. */
  | { type: "declined"; reason: string }
  /** `requests`: the decisions it answered and had acknowledged. */
  | {
      type: "status";
      pid: number;
      build: string;
      startedAt: string;
      requests: number;
      running: number;
      idleExitMs: number;
      log: string;
    }
  | { type: "stopping" };

/** What the client sends once it has a whole `done`: it will use it, so its side effects stay. */
export type ClientAck = { type: "ack" };

/** Splits what arrived into complete lines, keeping a partial last line for later. */
export class LineReader {
  #pending = "";

  push(chunk: Buffer | string): unknown[] {
    this.#pending += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    const messages: unknown[] = [];
    let end = this.#pending.indexOf("\n");
    while (end !== -1) {
      const line = this.#pending.slice(0, end);
      this.#pending = this.#pending.slice(end + 1);
      messages.push(parseLine(line));
      end = this.#pending.indexOf("\n");
    }
    return messages;
  }

  /** The last line, when the other side closed without a newline after it. */
  rest(): unknown | undefined {
    const line = this.#pending;
    this.#pending = "";
    return line.trim() === "" ? undefined : parseLine(line);
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
