// The live MCP sessions of `keel mcp --http`. A session ends when its client sends DELETE, when the
// server stops, or after it sat idle (no request running, none started) for the idle timeout; at most
// `maxSessions` live at once. Clients often never send DELETE, so without the timeout every abandoned
// session would stay in memory for the life of the process.
import type { ServerResponse } from "node:http";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS = 1_000;

export interface HttpSession {
  readonly transport: StreamableHTTPServerTransport;
  /** The protocol revision the session speaks (from its initialize request). */
  readonly protocolVersion: string;
  /** Ends the session's Keel context: running calls are aborted. */
  readonly end: () => void;
  /** Requests whose response is still open (a running call's SSE stream). */
  open: number;
  idleTimer: NodeJS.Timeout | undefined;
}

export interface SessionTableOptions {
  idleMs: number;
  maxSessions: number;
  log: (line: string) => void;
}

export class HttpSessionTable {
  readonly #sessions = new Map<string, HttpSession>();
  readonly #options: SessionTableOptions;

  constructor(options: SessionTableOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get isFull(): boolean {
    return this.#sessions.size >= this.#options.maxSessions;
  }

  get(id: string): HttpSession | undefined {
    return this.#sessions.get(id);
  }

  add(id: string, session: HttpSession): void {
    this.#sessions.set(id, session);
    this.#armIdleTimer(id, session);
  }

  /** Forgets a session whose transport closed (DELETE, expiry, shutdown). */
  remove(id: string): void {
    const session = this.#sessions.get(id);
    if (!session) return;
    clearTimeout(session.idleTimer);
    this.#sessions.delete(id);
  }

  /** A request of this session: the idle clock stops until its response has ended. */
  track(id: string, res: ServerResponse): void {
    const session = this.#sessions.get(id);
    if (!session) return;
    session.open++;
    clearTimeout(session.idleTimer);
    session.idleTimer = undefined;
    res.once("close", () => {
      session.open--;
      if (session.open === 0 && this.#sessions.get(id) === session) this.#armIdleTimer(id, session);
    });
  }

  #armIdleTimer(id: string, session: HttpSession): void {
    clearTimeout(session.idleTimer);
    const { idleMs, log } = this.#options;
    session.idleTimer = setTimeout(() => {
      if (session.open > 0 || this.#sessions.get(id) !== session) return;
      log(`session ${id} ended after ${describeDuration(idleMs)} without requests`);
      this.#sessions.delete(id);
      session.end();
      void session.transport.close().catch(() => {});
    }, idleMs);
    session.idleTimer.unref();
  }

  async closeAll(): Promise<void> {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    for (const session of sessions) {
      clearTimeout(session.idleTimer);
      session.end();
      await session.transport.close().catch(() => {});
    }
  }
}

export function describeDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1_000 === 0) return `${ms / 1_000} s`;
  return `${ms} ms`;
}

/** `--session-timeout`: `30m`, `90s`, `2h`, `500ms`, or plain minutes. */
export function parseDuration(value: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?\s*$/i.exec(value);
  const unit = match?.[2]?.toLowerCase() ?? "m";
  const factor = { ms: 1, s: 1_000, m: 60_000, min: 60_000, h: 3_600_000 }[unit] ?? Number.NaN;
  const ms = match ? Number(match[1]) * factor : Number.NaN;
  if (!Number.isFinite(ms) || ms < 1)
    throw new Error(`expected a duration such as 30m, 90s, 2h or 500ms (got "${value}")`);
  return Math.round(ms);
}
