// The stdio side of `keel mcp`: newline-delimited JSON-RPC on stdin/stdout. Unlike the SDK's stdio
// transport, a message over the size limit does not end the session: its bytes are skipped up to the next
// newline and the client gets a JSON-RPC error (with the request's id when it can be read from the line's
// ends), exactly as an HTTP body over the limit does. Bad JSON and non-JSON-RPC lines get errors too.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { toJsonRpcMessage } from "./jsonRpcMessage.ts";
import {
  errorResponse,
  idFromMessageEnds,
  JSONRPC_INVALID_REQUEST,
  JSONRPC_PARSE_ERROR,
  MAX_MESSAGE_BYTES,
  requestIdOf,
  tooLargeMessage,
  withoutCodePrefix,
} from "./messageLimits.ts";
import { serializeMessage } from "./serializeMessage.ts";

const ENDS_BYTES = 512;

export interface LineTransportOptions {
  maxMessageBytes?: number;
  /** Problems a person should know of (a refused message); the client gets its error on stdout. */
  log?: (line: string) => void;
}

export class LineStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #stdin: NodeJS.ReadableStream;
  readonly #stdout: NodeJS.WritableStream;
  readonly #max: number;
  readonly #log: (line: string) => void;
  #parts: Buffer[] = [];
  #size = 0;
  /** Set while skipping a line over the limit: its first and (rolling) last bytes, for the id. */
  #skipping: { head: Buffer; tail: Buffer; size: number } | undefined;
  #closed = false;
  /** Sends whose bytes went past stdout's buffer, settled together at its next "drain". */
  #waitingForDrain: Array<() => void> = [];

  constructor(
    stdin: NodeJS.ReadableStream,
    stdout: NodeJS.WritableStream,
    options: LineTransportOptions = {},
  ) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#max = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    this.#log = options.log ?? (() => {});
  }

  async start(): Promise<void> {
    this.#stdin.on("data", this.#onData);
    this.#stdin.on("error", this.#onError);
  }

  readonly #onError = (error: Error) => this.onerror?.(error);

  readonly #onData = (chunk: Buffer | string) => {
    let data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let newline = data.indexOf(10);
    while (newline !== -1) {
      this.#append(data.subarray(0, newline));
      this.#endLine();
      data = data.subarray(newline + 1);
      newline = data.indexOf(10);
    }
    if (data.length > 0) this.#append(data);
  };

  #append(bytes: Buffer): void {
    if (bytes.length === 0) return;
    if (this.#skipping) {
      const skip = this.#skipping;
      skip.size += bytes.length;
      skip.tail = Buffer.concat([skip.tail, bytes]).subarray(-ENDS_BYTES);
      return;
    }
    this.#parts.push(bytes);
    this.#size += bytes.length;
    if (this.#size <= this.#max) return;
    const whole = Buffer.concat(this.#parts);
    this.#skipping = {
      head: Buffer.from(whole.subarray(0, ENDS_BYTES)),
      tail: Buffer.from(whole.subarray(-ENDS_BYTES)),
      size: whole.length,
    };
    this.#parts = [];
    this.#size = 0;
  }

  #endLine(): void {
    const skipped = this.#skipping;
    if (skipped) {
      this.#skipping = undefined;
      const id = idFromMessageEnds(skipped.head.toString("utf8"), skipped.tail.toString("utf8"));
      this.#log(`refused a ${skipped.size}-byte message (limit ${this.#max} bytes)`);
      this.#reply(errorResponse(id, JSONRPC_INVALID_REQUEST, tooLargeMessage(skipped.size, this.#max)));
      return;
    }
    const line = (this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts))
      .toString("utf8")
      .replace(/\r$/, "");
    this.#parts = [];
    this.#size = 0;
    if (line.trim() === "") return;
    this.#handleLine(line);
  }

  #handleLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.#reply(errorResponse(null, JSONRPC_PARSE_ERROR, "Parse error: the line is not valid JSON"));
      return;
    }
    if (Array.isArray(value)) {
      this.#reply(
        errorResponse(
          null,
          JSONRPC_INVALID_REQUEST,
          "Invalid Request: JSON-RPC batches are not supported (removed in MCP 2025-06-18); send one message per line",
        ),
      );
      return;
    }
    const message = toJsonRpcMessage(value);
    if (!message) {
      this.#reply(
        errorResponse(
          requestIdOf(value),
          JSONRPC_INVALID_REQUEST,
          "Invalid Request: not a JSON-RPC 2.0 message",
        ),
      );
      return;
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  #reply(message: JSONRPCMessage): void {
    this.send(message).catch((error: unknown) => this.onerror?.(error as Error));
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#stdout.write(`${serializeMessage(withoutCodePrefix(message))}\n`)) return Promise.resolve();
    // Past the stream's buffer: settled when it drains, one listener for every message waiting on it.
    return new Promise((resolve) => {
      this.#waitingForDrain.push(resolve);
      if (this.#waitingForDrain.length === 1) this.#stdout.once("drain", this.#drained);
    });
  }

  readonly #drained = () => {
    const waiting = this.#waitingForDrain;
    this.#waitingForDrain = [];
    for (const resolve of waiting) resolve();
  };

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off("data", this.#onData);
    this.#stdin.off("error", this.#onError);
    this.#parts = [];
    this.#skipping = undefined;
    // Nothing more will be written: sends still waiting for stdout to drain are done.
    this.#stdout.off("drain", this.#drained);
    this.#drained();
    this.onclose?.();
  }
}
