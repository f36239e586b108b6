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

/** One request to the server at `socket`: its reply, or undefined when none came. */
export function askServer(socket: string, request: ServerRequest): Promise<ServerReply | undefined> {
  return new Promise((resolve) => {
    const connection = connect(socket);
    connection.once("connect", () => resolve(exchange(connection, request)));
    connection.once("error", () => resolve(undefined));
  });
}

function ask(socket: string, type: "status" | "stop"): Promise<ServerReply | undefined> {
  return askServer(socket, { type, version: PROTOCOL_VERSION });
}

/** The servers that answer; sockets left by servers that died are removed. */
export async function listServers(env: NodeJS.ProcessEnv = process.env): Promise<ServerStatus[]> {
  const found: ServerStatus[] = [];
  for (const socket of sockets(env)) {
    const reply = await ask(socket, "status");
    if (reply?.type === "status") {
      const { type: _type, ...status } = reply;
      found.push({ socket, ...status });
    } else if (reply === undefined) {
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
  for (const socket of sockets(env)) if ((await ask(socket, "stop"))?.type === "stopping") stopped++;
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
