// `keel daemon status|stop`: the decision servers of this user, as their sockets name them.
import { readdirSync, statSync, unlinkSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { serverDir } from "./address.ts";
import { exchange } from "./client.ts";
import { PROTOCOL_VERSION, type ServerReply, type ServerRequest } from "./protocol.ts";

export interface ServerStatus {
  socket: string;
  pid: number;
  /** The launcher's entry file the server runs (its build: size, time, inode). */
  build: string;
  startedAt: string;
  requests: number;
  idleExitMs: number;
}

function sockets(env: NodeJS.ProcessEnv): string[] {
  const dir = serverDir(env);
  if (dir === undefined) return [];
  try {
    return readdirSync(dir)
      .filter((name) => /^decide-[0-9a-f]{16}\.sock$/.test(name))
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
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

/** Start locks younger than this belong to a server still loading (client.ts gives a start 20 s). */
const STARTING_MS = 20_000;

/** Whether a server is still starting: it is stopped once it listens, not missed. */
function starting(env: NodeJS.ProcessEnv): boolean {
  const dir = serverDir(env);
  if (dir === undefined) return false;
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(".sock.starting"))
      .some((name) => Date.now() - statSync(join(dir, name)).mtimeMs < STARTING_MS);
  } catch {
    return false;
  }
}

/** Asks every server of this user to stop (waiting for one still starting); resolves to how many agreed. */
export async function stopServers(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  for (let waited = 0; starting(env) && waited < STARTING_MS; waited += 100)
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
