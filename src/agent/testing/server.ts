// The HTTP side shared by the scripted provider servers: listen on 127.0.0.1, record every request
// byte for byte, check the key, pick the scripted turn, and write the protocol's frames with pacing.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { RecordedRequest, Script, ScriptTurn } from "./script.ts";

/** One piece of a streamed response. `blockEnd` marks the end of a content block; `final` the closing frames. */
export interface Frame {
  data: string;
  blockEnd?: boolean;
  final?: boolean;
}

export interface Protocol {
  /** The path the SDK posts to (`/v1/messages`, `/v1/chat/completions`). */
  path: string;
  /** The key the request carries, or undefined. */
  apiKeyOf(request: IncomingMessage): string | undefined;
  authError(): { status: number; body: unknown };
  httpError(turn: ScriptTurn): { status: number; body: unknown; headers: Record<string, string> };
  notFound(path: string): { status: number; body: unknown };
  streamFrames(turn: ScriptTurn, body: Record<string, unknown>, turnIndex: number): Frame[];
  errorFrame(type: string, message: string): string;
  /** A whole response for `stream: false` requests. */
  jsonResponse(turn: ScriptTurn, body: Record<string, unknown>, turnIndex: number): unknown;
}

/** What the scripted server answers the classifier (its requests carry CLASSIFIER_MARKER), apart from the script. */
export type ClassifierScript = (request: RecordedRequest, index: number) => ScriptTurn;

/** A line of the classifier's fixed prompt (src/agent/classifier.ts): its requests are told apart by it. */
export const CLASSIFIER_MARKER = "You review one tool call a coding agent wants to make";

export interface ScriptedServerOptions {
  script: Script;
  /**
   * Answers the classifier's requests without taking a turn of the script (they are recorded in
   * `classifierRequests`). Default: "ASK: no verdict scripted".
   */
  classifier?: ClassifierScript;
  /** When set, requests with another key get the protocol's 401. */
  apiKey?: string;
}

export class ScriptedServer {
  readonly requests: RecordedRequest[] = [];
  /** The classifier's requests, answered by `options.classifier`. */
  readonly classifierRequests: RecordedRequest[] = [];
  /** Responses whose connection the client closed before the server finished (aborts). */
  readonly clientClosed: number[] = [];
  readonly #protocol: Protocol;
  readonly #options: ScriptedServerOptions;
  readonly #server: Server;
  #turns = 0;
  #url = "";

  constructor(protocol: Protocol, options: ScriptedServerOptions) {
    this.#protocol = protocol;
    this.#options = options;
    this.#server = createServer((request, response) => {
      void this.#handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: `scripted server failed: ${String(error)}` } }));
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    const { port } = this.#server.address() as AddressInfo;
    this.#url = `http://127.0.0.1:${port}`;
    return this;
  }

  /** The base URL to give the SDK (no path). */
  get url(): string {
    return this.#url;
  }

  /** How many scripted turns have been played. */
  get turnsPlayed(): number {
    return this.#turns;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #nextTurn(request: RecordedRequest): { turn: ScriptTurn; index: number } {
    const script = this.#options.script;
    const index = this.#turns++;
    if (typeof script === "function") return { turn: script(request, index), index };
    const turn = script[index];
    if (!turn) throw new Error(`the script has ${script.length} turns; request ${index + 1} has none`);
    return { turn, index };
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawBody = await readBody(request);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(rawBody) as Record<string, unknown>;
    } catch {
      // Recorded as is; the script decides.
    }
    const recorded: RecordedRequest = {
      method: request.method ?? "",
      path: request.url ?? "",
      headers: request.headers,
      rawBody,
      body,
      turnIndex: -1,
    };
    if (rawBody.includes(CLASSIFIER_MARKER)) {
      this.classifierRequests.push(recorded);
      const index = this.classifierRequests.length - 1;
      const turn = this.#options.classifier?.(recorded, index) ?? {
        blocks: [{ type: "text", text: "ASK: no verdict scripted" }],
      };
      if (body.stream !== true) {
        await turn.beforeStop?.();
        return sendJson(response, { status: 200, body: this.#protocol.jsonResponse(turn, body, -1) });
      }
      return this.#stream(turn, body, -1, response);
    }
    this.requests.push(recorded);
    const path = (request.url ?? "").split("?")[0] ?? "";
    if (path !== this.#protocol.path) return sendJson(response, this.#protocol.notFound(path));
    if (this.#options.apiKey !== undefined && this.#protocol.apiKeyOf(request) !== this.#options.apiKey)
      return sendJson(response, this.#protocol.authError());
    const { turn, index } = this.#nextTurn(recorded);
    recorded.turnIndex = index;
    if (turn.httpError) {
      const error = this.#protocol.httpError(turn);
      response.writeHead(error.status, { "content-type": "application/json", ...error.headers });
      response.end(JSON.stringify(error.body));
      return;
    }
    if (body.stream !== true) {
      await turn.beforeStop?.();
      return sendJson(response, { status: 200, body: this.#protocol.jsonResponse(turn, body, index) });
    }
    await this.#stream(turn, body, index, response);
  }

  async #stream(
    turn: ScriptTurn,
    body: Record<string, unknown>,
    index: number,
    response: ServerResponse,
  ): Promise<void> {
    let closedEarly = false;
    response.on("close", () => {
      if (!response.writableFinished) {
        closedEarly = true;
        this.clientClosed.push(index);
      }
    });
    response.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    response.flushHeaders();
    const frames = this.#protocol.streamFrames(turn, body, index);
    const delay = turn.spreadMs ? turn.spreadMs / Math.max(1, frames.length) : (turn.eventDelayMs ?? 0);
    let blocks = 0;
    let stopAwaited = false;
    for (const frame of frames) {
      if (closedEarly) return;
      if (frame.final && !stopAwaited) {
        stopAwaited = true;
        await turn.beforeStop?.();
      }
      if (delay > 0) await sleep(delay);
      if (closedEarly) return;
      response.write(frame.data);
      if (frame.blockEnd) {
        blocks++;
        if (turn.streamError && blocks === turn.streamError.afterBlocks) {
          response.end(this.#protocol.errorFrame(turn.streamError.type, turn.streamError.message));
          return;
        }
        if (turn.hangAfterBlocks !== undefined && blocks === turn.hangAfterBlocks) return;
      }
    }
    response.end();
  }
}

function sendJson(response: ServerResponse, answer: { status: number; body: unknown }): void {
  response.writeHead(answer.status, { "content-type": "application/json" });
  response.end(JSON.stringify(answer.body));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    request.on("error", reject);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
