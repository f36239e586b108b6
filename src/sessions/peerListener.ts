// A session's own socket: other sessions of this user send it messages (peerMessages.ts), which it sees
// between turns. Opened when the session starts, closed (socket and info file removed) when it ends or
// the process exits.
import { chmodSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { atomicWriteJson } from "../settings/atomicJson.ts";
import { randomBytes } from "../tool/lazyCrypto.ts";
import {
  infoFileOf,
  listPeers,
  type PeerKind,
  type PeerSession,
  peersDir,
  peersEnabled,
  removePeerFiles,
} from "./peerDirectory.ts";
import {
  CONNECTION_TIMEOUT_MS,
  MAX_CONNECTIONS,
  MAX_MESSAGE_BYTES,
  type PeerAnswer,
  type PeerMessage,
  parsePeerMessage,
} from "./peerMessages.ts";

export interface PeerListenerOptions {
  env: NodeJS.ProcessEnv;
  sessionId: string;
  name?: string;
  cwd: string;
  kind: PeerKind;
  onMessage(message: PeerMessage): void;
}

/** Listeners still open when the process exits get their files removed (one exit handler for all). */
const open = new Set<PeerListener>();
let exitHandlerSet = false;
function removeAtExit(listener: PeerListener): void {
  open.add(listener);
  if (exitHandlerSet) return;
  exitHandlerSet = true;
  process.on("exit", () => {
    for (const each of open) removePeerFiles(each.socket);
  });
}

export class PeerListener {
  readonly socket: string;
  readonly info: PeerSession;
  readonly #server: Server;
  #closed = false;

  private constructor(socket: string, info: PeerSession, server: Server) {
    this.socket = socket;
    this.info = info;
    this.#server = server;
    removeAtExit(this);
  }

  /** Listens for the session; undefined when there is no private folder (or sockets are off). */
  static async open(options: PeerListenerOptions): Promise<PeerListener | undefined> {
    const dir = peersEnabled(options.env) ? peersDir(options.env) : undefined;
    if (!dir) return undefined;
    // Files left by sessions whose process is gone go now, not only when someone lists the sessions.
    listPeers(options.env);
    const socket = join(dir, `${process.pid}-${randomBytes(3).toString("hex")}.sock`);
    const server = createServer((connection) => serve(connection, options.onMessage));
    server.maxConnections = MAX_CONNECTIONS;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(socket, () => {
          server.off("error", reject);
          resolve();
        });
      });
      chmodSync(socket, 0o600);
    } catch {
      server.close();
      removePeerFiles(socket);
      return undefined;
    }
    server.unref();
    const info: PeerSession = {
      sessionId: options.sessionId,
      ...(options.name ? { name: options.name } : {}),
      pid: process.pid,
      cwd: options.cwd,
      kind: options.kind,
      startedAt: new Date().toISOString(),
      socket,
    };
    atomicWriteJson(infoFileOf(socket), info);
    return new PeerListener(socket, info, server);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    open.delete(this);
    this.#server.close();
    removePeerFiles(this.socket);
  }
}

function serve(connection: Socket, onMessage: (message: PeerMessage) => void): void {
  let buffer = "";
  const answer = (reply: PeerAnswer) => connection.end(`${JSON.stringify(reply)}\n`);
  connection.setEncoding("utf8");
  connection.setTimeout(CONNECTION_TIMEOUT_MS, () => connection.destroy());
  connection.on("error", () => connection.destroy());
  connection.on("data", (chunk: string) => {
    buffer += chunk;
    if (Buffer.byteLength(buffer) > MAX_MESSAGE_BYTES) {
      answer({ ok: false, error: `message over ${MAX_MESSAGE_BYTES / 1024} KiB` });
      connection.removeAllListeners("data");
      return;
    }
    const end = buffer.indexOf("\n");
    if (end === -1) return;
    connection.removeAllListeners("data");
    const parsed = parsePeerMessage(buffer.slice(0, end));
    if ("error" in parsed) return answer({ ok: false, error: parsed.error });
    onMessage(parsed);
    answer({ ok: true });
  });
}
