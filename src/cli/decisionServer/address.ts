// Where the decision server of this user, this Keel build and this environment listens. Kept to Node
// built-ins and a few file checks: the client loads this at every `keel hook` / `keel check` start.
import { createRequire } from "node:module";
import { isPrivateFolder, tmpFolder } from "../../tool/privateFolder.ts";

// Built-ins through require(): an ES import of node:fs builds a facade that loads all of fs's streams.
const require = createRequire(import.meta.url);
const { mkdirSync, statSync } = require("node:fs") as typeof import("node:fs");
const { join } = require("node:path") as typeof import("node:path");

/** `KEEL_DECISION_SERVER=off` (or 0, false, no): every call decides in its own process. */
export const SERVER_SWITCH = "KEEL_DECISION_SERVER";

/**
 * Variables that change from one folder, command or agent session to the next: sent with each request
 * and set for it, instead of naming a server of their own (one server per folder visited, or per Claude
 * Code session, would be waste). Keel reads them, if at all, while deciding, never once at start.
 * Claude Code gives every hook of a session its session id, its pid and its messaging socket.
 */
export const PER_REQUEST_ENV: readonly string[] = [
  "PWD",
  "OLDPWD",
  "_",
  "SHLVL",
  "CLAUDE_CODE_SESSION_ID",
  "CLAUDE_PID",
  "CLAUDE_CODE_MESSAGING_SOCKET",
  "CLAUDE_CODE_MESSAGING_TOKEN",
  "CLAUDE_CODE_CHILD_NOTES_DIR",
];

export function serverEnabled(env: NodeJS.ProcessEnv): boolean {
  const value = env[SERVER_SWITCH]?.trim().toLowerCase();
  return !(value === "off" || value === "0" || value === "false" || value === "no");
}

/** The environment a server is for: everything but the per-request variables, in a stable order. */
export function keyedEnv(env: NodeJS.ProcessEnv): string {
  const names = Object.keys(env)
    .filter((name) => env[name] !== undefined && !PER_REQUEST_ENV.includes(name))
    .sort();
  return JSON.stringify(names.map((name) => [name, env[name]]));
}

/**
 * The user's private folder for server sockets: `$XDG_RUNTIME_DIR/keel`, else `<tmp>/keel-<uid>`.
 * Only a folder this user owns, that is no symlink and that nobody else may enter is used: a socket
 * another user could plant would answer Keel's decisions. Anything else: undefined (no server).
 */
export function serverDir(env: NodeJS.ProcessEnv): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const runtime = env.XDG_RUNTIME_DIR;
  const dir =
    runtime?.startsWith("/") && isPrivateFolder(runtime, uid)
      ? join(runtime, "keel")
      : join(tmpFolder(env), `keel-${uid}`);
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

export function socketPath(dir: string, build: string, env: NodeJS.ProcessEnv): string | undefined {
  const path = join(dir, `decide-${hash64(`${build}\0${keyedEnv(env)}`)}.sock`);
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : undefined;
}

/**
 * Two FNV-1a 32-bit hashes with different offsets: names a socket. The server checks the build and the
 * environment of every request itself, so the name needs no cryptographic strength.
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
