// Session sockets: a session listens in the user's private folder, another sends it a message, the
// files go when it closes, files of a process that is gone are cleaned, and only private sockets of
// this user are sent to.
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findPeer, listPeers, type PeerSession, socketProblem } from "./peerDirectory.ts";
import { PeerListener } from "./peerListener.ts";
import { MAX_MESSAGE_BYTES, type PeerMessage, sendPeerMessage } from "./peerMessages.ts";

const folders: string[] = [];
const listeners: PeerListener[] = [];
afterEach(() => {
  for (const listener of listeners.splice(0)) listener.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function runtimeEnv(): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(tmpdir(), "keel-peers-"));
  folders.push(dir);
  return { KEEL_DECISION_SERVER_DIR: dir };
}

const from = { sessionId: "s-from", pid: 1, cwd: "/p" };

async function open(env: NodeJS.ProcessEnv, name: string, received: PeerMessage[] = []) {
  const listener = await PeerListener.open({
    env,
    sessionId: `session-${name}`,
    name,
    cwd: "/project",
    kind: "run",
    onMessage: (message) => received.push(message),
  });
  if (!listener) throw new Error("no private folder");
  listeners.push(listener);
  return listener;
}

describe("session sockets", () => {
  it("lists a live session, delivers a message to it, and removes its files when it closes", async () => {
    const env = runtimeEnv();
    const received: PeerMessage[] = [];
    const listener = await open(env, "bee", received);
    const peers = listPeers(env);
    expect(peers.map((peer) => [peer.name, peer.sessionId, peer.pid])).toEqual([
      ["bee", "session-bee", process.pid],
    ]);
    expect(listPeers(env, { exclude: "session-bee" })).toEqual([]);
    await sendPeerMessage(listener.socket, { type: "message", from, text: "hello" });
    expect(received.map((message) => message.text)).toEqual(["hello"]);
    listener.close();
    expect(readdirSync(join(env.KEEL_DECISION_SERVER_DIR as string, "sessions"))).toEqual([]);
    await expect(sendPeerMessage(listener.socket, { type: "message", from, text: "x" })).rejects.toThrow(
      /nothing listens there any more/,
    );
  });

  it("refuses a message over the size limit", async () => {
    const env = runtimeEnv();
    const listener = await open(env, "big");
    await expect(
      sendPeerMessage(listener.socket, { type: "message", from, text: "x".repeat(MAX_MESSAGE_BYTES) }),
    ).rejects.toThrow(/over 64 KiB/);
  });

  it("cleans the files of a session whose process is gone", async () => {
    const env = runtimeEnv();
    const dir = join(env.KEEL_DECISION_SERVER_DIR as string, "sessions");
    await open(env, "alive");
    const stale: PeerSession = {
      sessionId: "gone",
      pid: 2 ** 22 + 1,
      cwd: "/x",
      kind: "run",
      startedAt: new Date().toISOString(),
      socket: join(dir, "999-abc.sock"),
    };
    writeFileSync(join(dir, "999-abc.json"), JSON.stringify(stale));
    writeFileSync(join(dir, "999-abc.sock"), "");
    expect(listPeers(env).map((peer) => peer.name)).toEqual(["alive"]);
    expect(readdirSync(dir).filter((name) => name.startsWith("999"))).toEqual([]);
  });

  it("does not listen where other users may enter", async () => {
    const dir = mkdtempSync(join(tmpdir(), "keel-peers-open-"));
    folders.push(dir);
    chmodSync(dir, 0o755);
    // The folder named for Keel's sockets is open to others: nothing listens there.
    const listener = await PeerListener.open({
      env: { KEEL_DECISION_SERVER_DIR: dir },
      sessionId: "s",
      cwd: "/p",
      kind: "run",
      onMessage: () => {},
    });
    expect(listener).toBeUndefined();
  });
});

describe("socketProblem (uds:<path>)", () => {
  it("takes a socket of this user in a private folder and refuses the rest", async () => {
    const env = runtimeEnv();
    const listener = await open(env, "ok");
    expect(socketProblem(listener.socket)).toBeUndefined();
    const open755 = mkdtempSync(join(tmpdir(), "keel-peers-755-"));
    folders.push(open755);
    chmodSync(open755, 0o755);
    const exposed = join(open755, "s.sock");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(exposed, resolve));
    writeFileSync(join(open755, "file"), "");
    const cases: Array<[string, RegExp]> = [
      [exposed, /a folder other users may enter/],
      [join(open755, "file"), /is not a socket/],
      [join(open755, "missing.sock"), /No socket at/],
      ["relative.sock", /not an absolute path/],
    ];
    for (const [path, problem] of cases) expect(socketProblem(path)).toMatch(problem);
    server.close();
  });
});

describe("findPeer", () => {
  const peer = (sessionId: string, name?: string): PeerSession => ({
    sessionId,
    ...(name ? { name } : {}),
    pid: 1,
    cwd: "/",
    kind: "run",
    startedAt: "",
    socket: "/s",
  });
  const peers = [peer("aaaaaaaa-1111", "bee"), peer("bbbbbbbb-2222", "ant"), peer("bbbbbbbb-3333", "ant")];
  it.each([
    ["bee", "aaaaaaaa-1111"],
    ["aaaaaaaa-1111", "aaaaaaaa-1111"],
    ["aaaaaaaa", "aaaaaaaa-1111"],
    ["aaaa", undefined],
    ["nobody", undefined],
    ["bbbbbbbb", undefined],
  ])("%s -> %s", (target, id) => {
    const found = findPeer(peers, target);
    expect(found && "sessionId" in found ? found.sessionId : undefined).toBe(id);
  });
  it("two sessions of one name: an error naming their ids", () => {
    expect(findPeer(peers, "ant")).toEqual({ error: expect.stringMatching(/2 sessions are named "ant"/) });
  });
});
