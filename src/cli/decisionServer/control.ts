// `keel daemon status|stop`: the decision servers of this user, as their sockets name them.
import { readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { START_LOCK_MS, serverDir, startLockOf } from "./address.ts";
import { exchange } from "./client.ts";
import { PROTOCOL_VERSION, type ServerReply, type ServerRequest } from "./protocol.ts";

export interface ServerStatus {
  socket: string;
  pid: number;
  /** The launcher's entry file the server runs (its build: size, time, inode). */
  build: string;
  startedAt: string;
  /** Decisions answered and acknowledged. */
  requests: number;
  /** Decisions being made now. */
  running: number;
  idleExitMs: number;
  /** What went wrong in it (bounded). */
  log: string;
}

/** The last `count` lines of a server's log (what went wrong lately), or none. */
export function recentLogLines(log: string, count: number): string[] {
  try {
    return readFileSync(log, "utf8").trim().split("\n").filter(Boolean).slice(-count);
  } catch {
    return [];
  }
}

/** The server folder's entries, or none when there is no usable folder. */
function entries(env: NodeJS.ProcessEnv): Array<{ name: string; path: string }> {
  const dir = serverDir(env);
  if (dir === undefined) return [];
  try {
    return readdirSync(dir).map((name) => ({ name, path: join(dir, name) }));
  } catch {
    return [];
  }
}

function sockets(env: NodeJS.ProcessEnv): string[] {
  return entries(env)
    .filter(({ name }) => /^decide-[0-9a-f]{16}\.sock$/.test(name))
    .map(({ path }) => path);
}

/**
 * A person or a test waits for `status` and `stop`: a busy machine may take longer than a hook's
 * ACCEPT_TIMEOUT_MS to schedule the server, and a slow answer must not count as a dead server.
 */
const CONTROL_TIMEOUT_MS = 5_000;

/** What one request to a server's socket came to: its reply, no reply in time, or nobody listening. */
type Asked = { reply: ServerReply } | { silent: true } | { gone: true };

/** One request to the server at `socket`. */
export function askServer(
  socket: string,
  request: ServerRequest,
  timeoutMs = CONTROL_TIMEOUT_MS,
): Promise<Asked> {
  return new Promise((resolve) => {
    const connection = connect(socket);
    connection.once("connect", () =>
      resolve(
        exchange(connection, request, timeoutMs).then((reply) => (reply ? { reply } : { silent: true })),
      ),
    );
    connection.once("error", () => resolve({ gone: true }));
  });
}

async function ask(socket: string, type: "status" | "stop"): Promise<Asked> {
  return askServer(socket, { type, version: PROTOCOL_VERSION });
}

/** The servers that answer; sockets left by servers that died are removed. */
export async function listServers(env: NodeJS.ProcessEnv = process.env): Promise<ServerStatus[]> {
  const found: ServerStatus[] = [];
  for (const socket of sockets(env)) {
    const asked = await ask(socket, "status");
    if ("reply" in asked && asked.reply.type === "status") {
      const { type: _type, ...status } = asked.reply;
      found.push({ socket, ...status });
    } else if ("gone" in asked) {
      // Nobody listens there: a server that died. A silent one (stopped, or a busy machine) keeps its socket.
      try {
        unlinkSync(socket);
      } catch {}
    }
  }
  return found;
}

/** Whether a server is still starting (a fresh start lock): it is stopped once it listens, not missed. */
function starting(env: NodeJS.ProcessEnv): boolean {
  return entries(env)
    .filter(({ name }) => name.endsWith(startLockOf(".sock")))
    .some(({ path }) => {
      try {
        return Date.now() - statSync(path).mtimeMs < START_LOCK_MS;
      } catch {
        return false;
      }
    });
}

/** Asks every server of this user to stop (waiting for one still starting); resolves to how many agreed. */
export async function stopServers(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  for (let waited = 0; starting(env) && waited < START_LOCK_MS; waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
  let stopped = 0;
  for (const socket of sockets(env)) {
    const asked = await ask(socket, "stop");
    if ("reply" in asked && asked.reply.type === "stopping") stopped++;
  }
  return stopped;
}

/** Waits (up to `timeoutMs`) for a server the predicate accepts; the benches and tests start one by a call. */
export async function waitForServer(
  env: NodeJS.ProcessEnv,
  predicate: (server: ServerStatus) => boolean = () => true,
  timeoutMs = 30_000,
): Promise<ServerStatus> {
  for (let waited = 0; waited < timeoutMs; waited += 100) {
    const found = (await listServers(env)).find(predicate);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no decision server started within ${timeoutMs / 1000} s`);
}
