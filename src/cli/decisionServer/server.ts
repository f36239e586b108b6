// The decision server: a warm process that decides `keel hook <agent>` and `keel check <Name> <json>`
// for one user and one Keel build, so a call costs a Node start and a socket round trip instead of
// loading Keel and compiling the Bash grammar each time. It is a transport for the decision: each
// request carries its caller (folder, environment, terminal flags, standard input) as data, and is
// decided by the same code a process of its own runs (served.ts), with that caller; nothing about the
// server's own process changes per request. Requests run concurrently; a request whose client went
// away is cancelled, and only the answers a client acknowledged keep their audit records. It exits after
// IDLE_EXIT_MS without a decision, and soon after its socket is no longer its own or Keel was rebuilt.
// What goes wrong is written to a bounded log beside the socket (`keel daemon status` shows it).
import { appendFileSync, chmodSync, renameSync, statSync, truncateSync, unlinkSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { errorMessage } from "../../tool/errors.ts";
import { installStopSignals, onStopSignal, signalExitCode } from "../../tool/stopSignals.ts";
import { buildId, logPathOf, startLockOf } from "./address.ts";
import {
  ALIVE_EVERY_MS,
  LineReader,
  MAX_REQUEST_BYTES,
  PROTOCOL_VERSION,
  type ServerReply,
  type ServerRequest,
} from "./protocol.ts";
import { type DecideRequest, decideServed, type ServedOutcome } from "./served.ts";

/** A server nobody asked for this long exits (`KEEL_DECISION_SERVER_IDLE_MS` overrides it). */
export const IDLE_EXIT_MS = 10 * 60_000;
const OWNERSHIP_CHECK_MS = 30_000;
/** The log is cut back to nothing once it passes this size: it holds recent failures, not history. */
export const MAX_LOG_BYTES = 256 * 1024;
/** Requests decided at once; more wait their turn (each is milliseconds of work, or waits on I/O). */
const MAX_RUNNING = 64;

export interface ServeOptions {
  socket: string;
  build: string;
  /** The CLI entry whose build the clients name. */
  entryFile: string;
  /** Loads what the decisions need, before the first request. */
  warmUp: () => Promise<void>;
}

export async function serveDecisions(options: ServeOptions): Promise<void> {
  const log = logPathOf(options.socket);
  const note = (text: string) => writeLog(log, text);
  const lock = startLockOf(options.socket);
  const releaseLock = () => {
    try {
      unlinkSync(lock);
    } catch {}
  };
  if (safeBuildId(options.entryFile) !== options.build) return releaseLock();
  await options.warmUp().catch((error: unknown) => note(`warm-up failed: ${errorMessage(error)}`));
  const idleMs = positiveEnvNumber("KEEL_DECISION_SERVER_IDLE_MS") ?? IDLE_EXIT_MS;
  const startedAt = new Date().toISOString();
  let answered = 0;
  let running = 0;
  let inode: number | undefined;

  const stop = (code = 0) => {
    server.close();
    if (inode !== undefined && socketInode(options.socket) === inode) {
      try {
        unlinkSync(options.socket);
      } catch {}
    }
    // A request's processes (its hooks) are killed on the way out (tool/ownedProcesses.ts).
    process.exit(code);
  };
  // SIGTERM, SIGINT, SIGHUP: gone at once, its socket with it, as a signalled process ends.
  installStopSignals();
  onStopSignal((signal) => stop(signalExitCode(signal)));
  // Only decisions keep the server alive: status and stop requests (keel daemon, keel doctor) do not.
  let idle = setTimeout(() => stop(), idleMs);
  const decided = () => {
    clearTimeout(idle);
    idle = setTimeout(() => stop(), idleMs);
  };

  const server = createServer({ allowHalfOpen: true }, (socket) => {
    socket.on("error", () => {});
    readRequest(socket, (request) => {
      if (request === undefined) return reply(socket, declined("unreadable request"), true);
      if (request.version !== PROTOCOL_VERSION)
        return reply(socket, declined("another protocol version"), true);
      if (request.type === "status")
        return reply(
          socket,
          {
            type: "status",
            pid: process.pid,
            build: options.build,
            startedAt,
            requests: answered,
            running,
            idleExitMs: idleMs,
            log,
          },
          true,
        );
      if (request.type === "stop") {
        reply(socket, { type: "stopping" }, true);
        return void setImmediate(stop);
      }
      if (request.build !== options.build) {
        // The client runs another build: this server is stale.
        setImmediate(stop);
        return reply(socket, declined("another build"), true);
      }
      if (running >= MAX_RUNNING) return reply(socket, declined("busy"), true);
      running++;
      decided();
      void answer(socket, request, note)
        .then((acknowledged) => {
          if (acknowledged) answered++;
        })
        .finally(() => {
          running--;
          decided();
        });
    });
  });
  server.on("error", (error) => note(`socket error: ${errorMessage(error)}`));
  const temporary = `${options.socket}.${process.pid}`;
  try {
    await listen(server, temporary);
    chmodSync(temporary, 0o600);
    renameSync(temporary, options.socket);
  } catch (error) {
    // Cannot listen there: the next call starts another try; until then calls decide on their own.
    note(`cannot listen on ${options.socket}: ${errorMessage(error)}`);
    releaseLock();
    process.exit(1);
  }
  inode = socketInode(options.socket);
  releaseLock();
  // Another server took the name (a parallel start): nobody will ask this one. Keel was rebuilt or
  // upgraded: every client now names another server.
  setInterval(() => {
    if (socketInode(options.socket) !== inode || safeBuildId(options.entryFile) !== options.build) stop();
  }, positiveEnvNumber("KEEL_DECISION_SERVER_CHECK_MS") ?? OWNERSHIP_CHECK_MS).unref();
}

/**
 * Decides one request: `accepted` at once, `alive` while it works, then the answer. Resolves true when
 * the client acknowledged the answer (its audit records are then kept), false when it went away.
 */
async function answer(
  socket: Socket,
  request: Extract<ServerRequest, { type: "decide" }>,
  note: (text: string) => void,
): Promise<boolean> {
  const cancel = new AbortController();
  const gone = () => cancel.abort(new Error("the client went away"));
  socket.once("close", gone);
  reply(socket, { type: "accepted" });
  const alive = setInterval(() => reply(socket, { type: "alive" }), ALIVE_EVERY_MS);
  let outcome: ServedOutcome | undefined;
  try {
    const wellFormed = wellFormedRequest(request);
    outcome = wellFormed
      ? await decideServed(wellFormed, cancel.signal)
      : { kind: "declined", reason: "unreadable request" };
  } catch (error) {
    note(`request failed (${request.command}): ${errorMessage(error)}`);
    outcome = { kind: "declined", reason: "failed" };
  } finally {
    clearInterval(alive);
  }
  if (outcome.kind === "declined") {
    reply(socket, declined(outcome.reason), true);
    return false;
  }
  const done = outcome;
  if (cancel.signal.aborted || socket.destroyed) {
    done.discard();
    return false;
  }
  const acknowledged = await new Promise<boolean>((resolve) => {
    const reader = new LineReader();
    const onData = (chunk: Buffer) => {
      if (reader.push(chunk).some((message) => (message as { type?: unknown })?.type === "ack")) finish(true);
    };
    const finish = (ok: boolean) => {
      socket.off("data", onData);
      socket.off("close", onClose);
      resolve(ok);
    };
    const onClose = () => finish(false);
    socket.on("data", onData);
    socket.once("close", onClose);
    reply(socket, { type: "done", stdout: done.stdout, stderr: done.stderr, exitCode: done.exitCode });
  });
  socket.off("close", gone);
  if (acknowledged) done.keep();
  else done.discard();
  socket.end();
  return acknowledged;
}

function wellFormedRequest(request: Extract<ServerRequest, { type: "decide" }>): DecideRequest | undefined {
  const ok =
    (request.command === "hook" || request.command === "check") &&
    Array.isArray(request.argv) &&
    request.argv.every((arg) => typeof arg === "string") &&
    typeof request.cwd === "string" &&
    request.cwd.startsWith("/") &&
    typeof request.env === "object" &&
    request.env !== null &&
    Object.values(request.env).every((value) => typeof value === "string") &&
    typeof request.tty === "object" &&
    request.tty !== null;
  return ok ? request : undefined;
}

function reply(socket: Socket, message: ServerReply, end = false): void {
  if (socket.destroyed || !socket.writable) return;
  const line = `${JSON.stringify(message)}\n`;
  if (end) socket.end(line);
  else socket.write(line);
}

function declined(reason: string): ServerReply {
  return { type: "declined", reason };
}

/** Appends one line to the server's log, starting it afresh once it grew past MAX_LOG_BYTES. */
function writeLog(path: string, text: string): void {
  try {
    if ((statSync(path, { throwIfNoEntry: false })?.size ?? 0) > MAX_LOG_BYTES) truncateSync(path, 0);
    appendFileSync(path, `${new Date().toISOString()} pid ${process.pid}: ${text}\n`, { mode: 0o600 });
  } catch {
    // A log that cannot be written must not stop decisions.
  }
}

function positiveEnvNumber(name: string): number | undefined {
  const given = Number(process.env[name]);
  return Number.isFinite(given) && given > 0 ? given : undefined;
}

function safeBuildId(entryFile: string): string | undefined {
  try {
    return buildId(entryFile);
  } catch {
    return undefined;
  }
}

function socketInode(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** The first line of the connection: the request (the client keeps its side open for its `ack`). */
function readRequest(socket: Socket, then: (request: ServerRequest | undefined) => void): void {
  const parts: Buffer[] = [];
  let size = 0;
  let done = false;
  const finish = (text: string | undefined) => {
    if (done) return;
    done = true;
    socket.off("data", onData);
    let request: unknown;
    try {
      request = text === undefined ? undefined : JSON.parse(text);
    } catch {
      request = undefined;
    }
    then(request !== null && typeof request === "object" ? (request as ServerRequest) : undefined);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) {
      done = true;
      return void socket.destroy();
    }
    parts.push(chunk);
    const end = chunk.indexOf(10);
    if (end === -1) return;
    const all = Buffer.concat(parts);
    finish(all.subarray(0, all.indexOf(10)).toString("utf8"));
  };
  socket.on("data", onData);
  socket.once("end", () => finish(parts.length > 0 ? Buffer.concat(parts).toString("utf8") : undefined));
}
