// Where the decision server of this user and this Keel build listens. Kept to Node built-ins and a few
// file checks: the client loads this at every `keel hook` / `keel check` start.
import { createRequire } from "node:module";
import { isPrivateFolder } from "../../tool/privateFolder.ts";

// Built-ins through require(): an ES import of node:fs builds a facade that loads all of fs's streams.
const require = createRequire(import.meta.url);
const { mkdirSync, statSync } = require("node:fs") as typeof import("node:fs");
const { join } = require("node:path") as typeof import("node:path");

/** `KEEL_DECISION_SERVER=off` (or 0, false, no): every call decides in its own process. */
export const SERVER_SWITCH = "KEEL_DECISION_SERVER";

/** Names the server folder instead of the account's default (tests, sandboxes, several installs). */
export const SERVER_DIR_VARIABLE = "KEEL_DECISION_SERVER_DIR";

export function serverEnabled(env: NodeJS.ProcessEnv): boolean {
  const value = env[SERVER_SWITCH]?.trim().toLowerCase();
  return !(value === "off" || value === "0" || value === "false" || value === "no");
}

/**
 * The user's private folder for server sockets and logs: `/run/user/<uid>/keel` where the system keeps
 * a runtime folder for the user, else `/tmp/keel-<uid>`. Chosen from the account, never from the
 * environment, so every terminal, agent and environment of one user finds the same server
 * (`KEEL_DECISION_SERVER_DIR` names another folder on purpose: tests, sandboxes). Only a
 * folder this user owns, that is no symlink and that nobody else may enter is used: a socket another
 * user could plant would answer Keel's decisions. Anything else: undefined (no server).
 */
export function serverDir(env: NodeJS.ProcessEnv): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const runtime = `/run/user/${uid}`;
  const chosen = env[SERVER_DIR_VARIABLE];
  const dir = chosen?.startsWith("/")
    ? chosen
    : isPrivateFolder(runtime, uid)
      ? join(runtime, "keel")
      : join("/tmp", `keel-${uid}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
  }
  return isPrivateFolder(dir, uid) ? dir : undefined;
}

/** What identifies the program a server runs: the launcher's entry file as built. */
export function buildId(entryFile: string): string {
  const stat = statSync(entryFile);
  return `${entryFile}:${stat.size}:${stat.mtimeMs}:${stat.ino}`;
}

/** How long a server's start may hold its lock before another process may try again. */
export const START_LOCK_MS = 20_000;

/** The lock beside a socket while its server starts: parallel first calls start one server, not several. */
export function startLockOf(socket: string): string {
  return `${socket}.starting`;
}

/** Unix socket paths are limited to 107 bytes; a longer one means no server. */
const MAX_SOCKET_PATH = 100;

/** The one socket of this build's server (one per user and build, whatever the caller's environment). */
export function socketPath(dir: string, build: string): string | undefined {
  const path = join(dir, `decide-${hash64(build)}.sock`);
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : undefined;
}

/** The server's log of what went wrong (bounded: see server.ts), beside its socket. */
export function logPathOf(socket: string): string {
  return socket.replace(/\.sock$/, ".log");
}

/**
 * Two FNV-1a 32-bit hashes with different offsets: names a socket. The server checks the build of every
 * request itself, so the name needs no cryptographic strength.
 */
function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x01000193);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}
