// The decision server: a warm process that answers `keel hook <agent>`, `keel check <Name> <json>`
// and read-only `keel tool` calls (client.ts says which) for one user, one Keel build and one
// environment, so a call costs a Node start and a socket round trip instead of loading Keel and
// compiling the Bash grammar each time. Each request runs the same main() the command would run in its
// own process, in the caller's folder, with the caller's per-directory variables and standard input;
// settings, rules and trust are read afresh for every request, as a new process would. Requests run one
// at a time. It exits after IDLE_EXIT_MS without requests, and soon after its socket is no longer its own
// or Keel was rebuilt.
import { chmodSync, renameSync, statSync, unlinkSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { installStopSignals, onStopSignal, signalExitCode } from "../../tool/stopSignals.ts";
import { buildId, keyedEnv, PER_REQUEST_ENV, startLockOf } from "./address.ts";
import { setGivenStdin } from "./givenStdin.ts";
import {
  firstLineMessage,
  MAX_REQUEST_BYTES,
  PROTOCOL_VERSION,
  type ServerReply,
  type ServerRequest,
  type TtyFlags,
} from "./protocol.ts";
import { servedCommand } from "./served.ts";

/** A server nobody asked for this long exits (`KEEL_DECISION_SERVER_IDLE_MS` overrides it). */
export const IDLE_EXIT_MS = 10 * 60_000;
const OWNERSHIP_CHECK_MS = 30_000;

export interface ServeOptions {
  socket: string;
  build: string;
  /** The CLI entry whose build the clients name. */
  entryFile: string;
  /** Runs one command line as main() does, returning its exit code. */
  run: (argv: readonly string[]) => Promise<number>;
  /** Loads what the answered commands need, before the first request. */
  warmUp: () => Promise<void>;
}

export async function serveDecisions(options: ServeOptions): Promise<void> {
  const lock = startLockOf(options.socket);
  const releaseLock = () => {
    try {
      unlinkSync(lock);
    } catch {}
  };
  if (safeBuildId(options.entryFile) !== options.build) return releaseLock();
  await options.warmUp().catch(() => {});
  const idleMs = idleExitMs();
  const startedAt = new Date().toISOString();
  let requests = 0;
  let queue: Promise<unknown> = Promise.resolve();
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
  let idle = setTimeout(() => stop(), idleMs);
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => stop(), idleMs);
  };

  const answer = async (request: ServerRequest): Promise<ServerReply> => {
    if (request.version !== PROTOCOL_VERSION) return declined("another protocol version");
    if (request.type === "status")
      return {
        type: "status",
        pid: process.pid,
        build: options.build,
        startedAt,
        requests,
        idleExitMs: idleMs,
      };
    if (request.type === "stop") {
      setImmediate(() => stop());
      return { type: "stopping" };
    }
    if (request.build !== options.build) {
      // The client runs another build: this server is stale.
      setImmediate(() => stop());
      return declined("another build");
    }
    return runRequest(request, options.run);
  };

  // Half-open: the client ends its side with the request; the reply still has to go out on ours.
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    touch();
    readRequest(socket, (request) => {
      const reply = queue.then(() => (request ? answer(request) : declined("unreadable request")));
      queue = reply.catch(() => {});
      reply
        .catch((error: unknown) => declined(`failed: ${(error as Error)?.message ?? String(error)}`))
        .then((result) => {
          touch();
          // Counted once the whole answer is handed to the client.
          socket.end(`${JSON.stringify(result)}\n`, (error?: Error | null) => {
            if (!error && result.type === "done") requests++;
          });
        });
    });
  });
  const temporary = `${options.socket}.${process.pid}`;
  try {
    await listen(server, temporary);
    chmodSync(temporary, 0o600);
    renameSync(temporary, options.socket);
  } catch {
    // Cannot listen there: the next call starts another try; until then calls decide on their own.
    releaseLock();
    process.exit(1);
  }
  inode = socketInode(options.socket);
  releaseLock();
  // Another server took the name (a parallel start): nobody will ask this one. Keel was rebuilt or
  // upgraded: every client now names another server.
  setInterval(() => {
    if (socketInode(options.socket) !== inode || safeBuildId(options.entryFile) !== options.build) stop();
  }, checkEveryMs()).unref();
}

function idleExitMs(): number {
  return positiveEnvNumber("KEEL_DECISION_SERVER_IDLE_MS") ?? IDLE_EXIT_MS;
}

/** How often a server checks that its socket and its build are still current (tests shorten it). */
function checkEveryMs(): number {
  return positiveEnvNumber("KEEL_DECISION_SERVER_CHECK_MS") ?? OWNERSHIP_CHECK_MS;
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

function declined(reason: string): ServerReply {
  return { type: "declined", reason };
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

function readRequest(socket: Socket, then: (request: ServerRequest | undefined) => void): void {
  const parts: Buffer[] = [];
  let size = 0;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    then(firstLineMessage(parts) as ServerRequest | undefined);
  };
  socket.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) return socket.destroy();
    parts.push(chunk);
    if (chunk.includes(10)) finish();
  });
  socket.on("end", finish);
  socket.on("error", () => {});
}

type Run = ServeOptions["run"];

/** One command as its own process would run it: the caller's folder, variables, input and terminals. */
async function runRequest(request: Extract<ServerRequest, { type: "run" }>, run: Run): Promise<ServerReply> {
  const wellFormed =
    Array.isArray(request.argv) &&
    request.argv.every((arg) => typeof arg === "string") &&
    typeof request.cwd === "string" &&
    typeof request.env === "object" &&
    request.env !== null &&
    typeof request.tty === "object" &&
    request.tty !== null;
  if (!wellFormed) return declined("unreadable request");
  if (servedCommand(request.argv, request.tty) === undefined) return declined("not a command a server runs");
  // Everything but the per-request variables must be what this server started with.
  if (keyedEnv(request.env) !== keyedEnv(process.env)) return declined("another environment");
  const home = process.cwd();
  try {
    process.chdir(request.cwd);
  } catch {
    return declined("cannot enter the caller's folder");
  }
  const restoreEnv = setPerRequestEnv(request.env);
  const restoreTty = setTtyFlags(request.tty);
  const output = captureOutput();
  setGivenStdin(request.stdin ?? { text: "" });
  let exitCode: number;
  try {
    exitCode = await run(request.argv);
  } finally {
    setGivenStdin(undefined);
    output.restore();
    restoreTty();
    restoreEnv();
    try {
      process.chdir(home);
    } catch {}
  }
  return { type: "done", stdout: output.stdout(), stderr: output.stderr(), exitCode };
}

function setPerRequestEnv(env: Record<string, string>): () => void {
  const saved = PER_REQUEST_ENV.map((name) => [name, process.env[name]] as const);
  for (const name of PER_REQUEST_ENV) {
    if (env[name] === undefined) delete process.env[name];
    else process.env[name] = env[name];
  }
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

function setTtyFlags(tty: TtyFlags): () => void {
  const streams = [
    [process.stdin, tty.stdin],
    [process.stdout, tty.stdout],
    [process.stderr, tty.stderr],
  ] as const;
  const saved = streams.map(([stream]) => (stream as { isTTY?: boolean }).isTTY);
  for (const [stream, value] of streams) (stream as { isTTY?: boolean }).isTTY = value;
  return () => {
    streams.forEach(([stream], i) => {
      (stream as { isTTY?: boolean }).isTTY = saved[i];
    });
  };
}

type Write = typeof process.stdout.write;

/** What the command writes to stdout and stderr, kept for the reply. */
function captureOutput(): { stdout(): string; stderr(): string; restore(): void } {
  const streams = [process.stdout, process.stderr] as const;
  const saved = streams.map((stream) => stream.write);
  const captured: string[][] = [[], []];
  streams.forEach((stream, i) => {
    stream.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
      captured[i]?.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      const done = typeof encoding === "function" ? encoding : callback;
      if (typeof done === "function") process.nextTick(done as () => void);
      return true;
    }) as Write;
  });
  return {
    stdout: () => (captured[0] ?? []).join(""),
    stderr: () => (captured[1] ?? []).join(""),
    restore: () => {
      streams.forEach((stream, i) => {
        stream.write = saved[i] as Write;
      });
    },
  };
}
