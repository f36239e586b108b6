// `keel daemon status|stop`: the decision servers of this user, as their sockets name them.
import { readdirSync, unlinkSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { serverDir } from "./address.ts";
import { exchange } from "./client.ts";
import { PROTOCOL_VERSION, type ServerReply } from "./protocol.ts";

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

function ask(socket: string, type: "status" | "stop"): Promise<ServerReply | undefined> {
  return new Promise((resolve) => {
    const connection = connect(socket);
    connection.once("connect", () => resolve(exchange(connection, { type, version: PROTOCOL_VERSION })));
    connection.once("error", () => resolve(undefined));
  });
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

/** Asks every server of this user to stop; resolves to how many agreed. */
export async function stopServers(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let stopped = 0;
  for (const socket of sockets(env)) if ((await ask(socket, "stop"))?.type === "stopping") stopped++;
  return stopped;
}
