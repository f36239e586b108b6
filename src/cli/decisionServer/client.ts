// The fast path of `keel hook <agent>` and `keel check <Name> <json>`: hand the command, with this
// process's folder, environment, terminal flags and standard input as data, to this user's warm decision
// server (server.ts) and print its answer. Anything short of a whole answer in time (no server, another
// build, a stopped or dying server) returns nothing to print, and the command runs in this process as
// before: the server only ever saves time, it never decides differently. A stopped server costs at most
// ACCEPT_TIMEOUT_MS; a working one says it is alive every ALIVE_EVERY_MS.
import { createRequire } from "node:module";
import type { Socket } from "node:net";
import { readStreamText } from "../../guard/readEvent.ts";
import { isTerminal, writeAllSync } from "../stdio.ts";
import { buildId, START_LOCK_MS, serverDir, serverEnabled, socketPath, startLockOf } from "./address.ts";
import {
  ALIVE_TIMEOUT_MS,
  type GivenStdin,
  LineReader,
  PROTOCOL_VERSION,
  type ServerReply,
  type ServerRequest,
} from "./protocol.ts";
import { servedCommand } from "./served.ts";

// Built-ins through require(): their ES facades cost a start several milliseconds (fs's loads its streams).
const require = createRequire(import.meta.url);
const { closeSync, openSync, statSync, unlinkSync } = require("node:fs") as typeof import("node:fs");

/** A server that has not taken the request by then is stopped or stuck: decide here. */
export const ACCEPT_TIMEOUT_MS = 1_000;

export interface Launcher {
  /** bin/keel.js, which starts a server with `--keel-decision-server`. */
  binFile: string;
  /** The CLI entry the launcher runs (its build identifies the server). */
  entryFile: string;
}

export interface ServerOutcome {
  /** The server answered: its exit code (stdout and stderr are written). */
  exitCode?: number;
  /** No server was listening: start one after this process has answered. */
  start?: () => void;
  /** Standard input read for the server that did not answer: the local run uses it. */
  stdin?: GivenStdin;
}

/**
 * The environment this command runs with. Started by Node < 22, the command itself will run relaunched
 * with KEEL_RELAUNCHED_FROM set (bin/relaunch.js), and so will the server it starts.
 */
function commandEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  if (Number(process.versions.node.split(".")[0]) < 22) env.KEEL_RELAUNCHED_FROM = process.version;
  return env;
}

export async function answerThroughServer(
  argv: readonly string[],
  launcher: Launcher,
): Promise<ServerOutcome> {
  // Asked of the descriptors: process.stdin and friends would build streams (~5 ms) for nothing.
  const tty = { stdin: isTerminal(0), stdout: isTerminal(1), stderr: isTerminal(2) };
  const command = servedCommand(argv, tty);
  if (command === undefined) return {};
  const env = commandEnv();
  if (!serverEnabled(env)) return {};
  const dir = serverDir(env);
  if (dir === undefined) return {};
  let build: string;
  try {
    build = buildId(launcher.entryFile);
  } catch {
    return {};
  }
  const socket = socketPath(dir, build);
  if (socket === undefined) return {};
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch {
    return {};
  }
  const connection = await connectTo(socket);
  if ("missing" in connection)
    return connection.missing ? { start: () => startServer(launcher, dir, socket, build) } : {};
  // Read only once a server listens: without one, the command reads its input itself (a relaunch on
  // an older Node must find stdin unread).
  // process.stdin: node:net is loaded for the connection already, and a stream can be given up on
  // (a read of the descriptor waiting on a writer that never closes stdin would hold even process.exit).
  const stdin = command === "hook" ? await readStreamText(process.stdin) : undefined;
  const request: ServerRequest = {
    type: "decide",
    version: PROTOCOL_VERSION,
    build,
    command,
    argv: [...argv],
    cwd,
    env,
    tty,
    ...(stdin ? { stdin } : {}),
  };
  const reply = await exchange(connection.socket, request);
  if (reply?.type === "done") {
    writeAll(1, reply.stdout);
    writeAll(2, reply.stderr);
    return { exitCode: reply.exitCode };
  }
  // Decided here after all, with the input already read.
  return stdin ? { stdin } : {};
}

/** Synchronous, so the answer is out before the process exits; a reader that is gone misses it. */
function writeAll(fd: number, text: string): void {
  try {
    writeAllSync(fd, text);
  } catch {}
}

type Connection = { socket: Socket } | { missing: boolean };

/** False only when the path surely is not there; a folder that cannot be read is left to connect(). */
function socketFileThere(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return true;
  }
}

function connectTo(path: string): Promise<Connection> {
  // No socket file, no server: node:net (with Node's streams, ~3 ms) loads only to reach one.
  if (!socketFileThere(path)) return Promise.resolve({ missing: true });
  const { connect } = require("node:net") as typeof import("node:net");
  return new Promise((resolve) => {
    const socket = connect(path);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ missing: false });
    }, ACCEPT_TIMEOUT_MS);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve({ socket });
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ missing: error.code === "ENOENT" || error.code === "ECONNREFUSED" });
    });
  });
}

/**
 * Sends a decision request and waits for the answer while the server keeps saying it is alive; on a
 * whole `done` it acknowledges before using it. Undefined when no answer came whole and in time (the
 * socket is then closed, which cancels the request and drops its audit records).
 */
export function exchange(
  socket: Socket,
  request: ServerRequest,
  acceptTimeoutMs = ACCEPT_TIMEOUT_MS,
): Promise<ServerReply | undefined> {
  return new Promise((resolve) => {
    const reader = new LineReader();
    let settled = false;
    const finish = (reply: ServerReply | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (reply?.type === "done") socket.end(`${JSON.stringify({ type: "ack" })}\n`);
      else socket.destroy();
      resolve(reply);
    };
    let timer = setTimeout(() => finish(undefined), acceptTimeoutMs);
    const onMessage = (message: unknown) => {
      const reply = message as ServerReply | undefined;
      if (reply?.type === "accepted" || reply?.type === "alive") {
        clearTimeout(timer);
        timer = setTimeout(() => finish(undefined), ALIVE_TIMEOUT_MS);
        return;
      }
      finish(reply);
    };
    socket.on("data", (chunk: Buffer) => {
      for (const message of reader.push(chunk)) onMessage(message);
    });
    socket.on("error", () => finish(undefined));
    socket.on("close", () => finish(reader.rest() as ServerReply | undefined));
    socket.write(`${JSON.stringify(request)}\n`);
  });
}

/**
 * Starts a server in the background, detached from this process (which exits at once). One at a time:
 * a lock file beside the socket keeps parallel first calls from starting several. The server writes
 * what goes wrong to its log (address.ts logPathOf), not to this process's terminal.
 */
export function startServer(launcher: Launcher, dir: string, socket: string, build: string): void {
  const lock = startLockOf(socket);
  if (!takeLock(lock)) return;
  try {
    const { spawn } = require("node:child_process") as typeof import("node:child_process");
    // A small young generation: the same speed for one call at a time, ~100 MB less resident memory.
    const args = ["--max-semi-space-size=1", launcher.binFile, "--keel-decision-server", socket, build];
    spawn(process.execPath, args, {
      cwd: dir,
      detached: true,
      stdio: "ignore",
      env: serverEnv(),
    }).unref();
  } catch {
    try {
      unlinkSync(lock);
    } catch {}
  }
}

/**
 * The server's own environment: only what starting Node and finding Keel need. Every request brings its
 * caller's environment, so nothing of the first caller's (secrets included) should live on in the server.
 */
function serverEnv(): Record<string, string> {
  const kept = [
    "PATH",
    "HOME",
    "LANG",
    "TZ",
    "KEEL_RELAUNCHED_FROM",
    "KEEL_DECISION_SERVER_IDLE_MS",
    "KEEL_DECISION_SERVER_CHECK_MS",
    "NODE_COMPILE_CACHE",
  ];
  const env: Record<string, string> = {};
  for (const name of kept) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  if (Number(process.versions.node.split(".")[0]) < 22) env.KEEL_RELAUNCHED_FROM = process.version;
  return env;
}

function takeLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(lock, "wx", 0o600));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
      try {
        if (Date.now() - statSync(lock).mtimeMs < START_LOCK_MS) return false;
        unlinkSync(lock);
      } catch {}
    }
  }
  return false;
}
