// The live Keel sessions of this user on this machine. Each session (`keel`, `keel run`) listens on a
// Unix socket in the user's private folder (the decision server's: `/run/user/<uid>/keel`, else
// `<tmp>/keel-<uid>`, only when this user owns it and nobody else may enter it), under `sessions/`,
// with a small JSON file beside it saying who listens. Only the same user can reach the folder, so only
// the same user's sessions can send; nothing listens on the network. A session removes its files when
// it ends; files of a process that is gone are removed by the next listing.
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { serverDir } from "../cli/decisionServer/address.ts";
import { isPrivateFolder } from "../tool/privateFolder.ts";

export type PeerKind = "terminal" | "run";

export interface PeerSession {
  sessionId: string;
  name?: string;
  pid: number;
  cwd: string;
  kind: PeerKind;
  startedAt: string;
  socket: string;
}

/** `KEEL_SESSION_SOCKETS=off`: sessions neither listen nor can be listed. */
export function peersEnabled(env: NodeJS.ProcessEnv): boolean {
  const value = env.KEEL_SESSION_SOCKETS?.trim().toLowerCase();
  return !(value === "off" || value === "0" || value === "false" || value === "no");
}

/** The private folder of session sockets, or undefined when there is none this user alone can enter. */
export function peersDir(env: NodeJS.ProcessEnv): string | undefined {
  const uid = process.getuid?.();
  const base = serverDir(env);
  if (uid === undefined || !base) return undefined;
  const dir = join(base, "sessions");
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
  }
  return isPrivateFolder(dir, uid) ? dir : undefined;
}

export function infoFileOf(socket: string): string {
  return socket.replace(/\.sock$/, ".json");
}

/** Signal 0 checks the pid; EPERM means another user's process has it now, so this session is gone too. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readPeer(file: string): PeerSession | undefined {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as Partial<PeerSession>;
    if (
      typeof value.sessionId === "string" &&
      typeof value.pid === "number" &&
      typeof value.socket === "string" &&
      typeof value.cwd === "string"
    )
      return value as PeerSession;
  } catch {
    // Torn or foreign: treated as stale.
  }
  return undefined;
}

/** The live sessions, oldest first; files of sessions whose process is gone are removed. */
export function listPeers(env: NodeJS.ProcessEnv, options: { exclude?: string } = {}): PeerSession[] {
  const dir = peersEnabled(env) ? peersDir(env) : undefined;
  if (!dir) return [];
  const peers: PeerSession[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".json")) continue;
    const file = join(dir, name);
    const peer = readPeer(file);
    if (
      !peer ||
      peer.socket !== file.replace(/\.json$/, ".sock") ||
      !alive(peer.pid) ||
      !isSocket(peer.socket)
    ) {
      removePeerFiles(file.replace(/\.json$/, ".sock"));
      continue;
    }
    if (peer.sessionId !== options.exclude) peers.push(peer);
  }
  return peers.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

function isSocket(path: string): boolean {
  try {
    return lstatSync(path).isSocket();
  } catch {
    return false;
  }
}

export function removePeerFiles(socket: string): void {
  rmSync(socket, { force: true });
  rmSync(infoFileOf(socket), { force: true });
}

/** A session by name, id or a unique id prefix of 8 or more characters. */
export function findPeer(
  peers: readonly PeerSession[],
  target: string,
): PeerSession | { error: string } | undefined {
  const named = peers.filter((peer) => peer.name === target);
  if (named.length === 1) return named[0];
  if (named.length > 1)
    return {
      error: `${named.length} sessions are named "${target}"; send to one by its session id (${named.map((peer) => peer.sessionId).join(", ")}).`,
    };
  const exact = peers.find((peer) => peer.sessionId === target);
  if (exact) return exact;
  if (target.length < 8) return undefined;
  const prefixed = peers.filter((peer) => peer.sessionId.startsWith(target));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/**
 * `uds:<path>`: a socket of this user in a folder only this user may enter (another user's socket would
 * receive what the session sends). The reason when it is not one.
 */
export function socketProblem(path: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return "Unix sockets are not available on this system.";
  if (!path.startsWith("/")) return `${path} is not an absolute path.`;
  try {
    const stat = lstatSync(path);
    if (!stat.isSocket()) return `${path} is not a socket.`;
    if (stat.uid !== uid) return `${path} belongs to another user.`;
  } catch {
    return `No socket at ${path} (the session may have ended).`;
  }
  if (!isPrivateFolder(dirname(path), uid))
    return `${path} is in a folder other users may enter; Keel only sends to sockets in a private folder.`;
  return undefined;
}
