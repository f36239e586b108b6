// `keel mcp --http` as a real process at two edges of HTTP: a client that goes away mid-call (its call
// is cancelled: the Bash command's process is killed), and a body far over the message limit (413 with a
// JSON-RPC error, not a reset connection). Raw HTTP from node:http, so the test controls the socket.
import { type ChildProcess, spawn } from "node:child_process";
import { type IncomingMessage, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupMembers, processesRunning, uniqueSeconds, waitUntil } from "../tool/testing/processes.ts";
import { KEEL_ENTRY, makeWorld } from "./testing/harness.ts";

let child: ChildProcess;
let url: URL;
let token: string;
let session: string;

function post(
  body: string | Buffer,
  headers: Record<string, string> = {},
): { response: Promise<{ status: number; text: string }>; destroy: () => void } {
  let destroy = () => {};
  const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "content-length": String(Buffer.byteLength(body)),
          ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
          ...headers,
        },
      },
      (res: IncomingMessage) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        res.on("error", reject);
        if (res.headers["mcp-session-id"]) session = String(res.headers["mcp-session-id"]);
      },
    );
    req.on("error", reject);
    destroy = () => req.destroy();
    req.end(body);
  });
  return { response, destroy };
}

/** The JSON-RPC message of a reply: the body, or the first SSE event's data. */
const messageOf = (text: string) =>
  JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text) as Record<string, unknown>;

beforeAll(async () => {
  const world = makeWorld();
  child = spawn(
    process.execPath,
    [KEEL_ENTRY, "--http", "0", "--cwd", world.project, "--allow", "Bash(sleep:*)"],
    {
      env: world.env,
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  await waitUntil(() => /token: \S+/.test(stderr), "keel mcp --http to start", 30_000);
  url = new URL(/at (http:\/\/\S+\/mcp)/.exec(stderr)![1]!);
  token = /token: (\S+)/.exec(stderr)![1]!;
  session = "";
  const init = await post(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    }),
  ).response;
  expect(init.status).toBe(200);
  expect(session).not.toBe("");
  await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })).response;
}, 60_000);

afterAll(async () => {
  // SIGTERM, so that it takes whatever it still runs with it.
  const exited = new Promise((resolve) => child.once("close", resolve));
  child.kill("SIGTERM");
  await exited;
});

describe("keel mcp --http at the edges", () => {
  it("a client that disconnects mid-call cancels it: the Bash command's process group is killed", async () => {
    const seconds = uniqueSeconds(47);
    const call = post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "Bash", arguments: { command: `sleep ${seconds}` } },
      }),
    );
    call.response.catch(() => {});
    let pgid = 0;
    await waitUntil(() => {
      pgid = processesRunning(["sleep", seconds])[0]?.pgid ?? 0;
      return pgid > 0;
    }, "the sleep to start");
    call.destroy();
    await waitUntil(() => groupMembers(pgid).length === 0, "the sleep to be killed", 10_000);
    // The session goes on.
    const ping = await post(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "ping" })).response;
    expect(messageOf(ping.text)).toMatchObject({ id: 8, result: {} });
  });

  it("a 100 MiB body gets 413 with a JSON-RPC error carrying its id, and the session goes on", async () => {
    const filler = Buffer.alloc(100 * 1024 * 1024, "x").toString("latin1");
    const body = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"Bash","arguments":{"command":"${filler}"}},"id":9}`;
    const refused = await post(body).response;
    expect(refused.status).toBe(413);
    expect(messageOf(refused.text)).toMatchObject({ jsonrpc: "2.0", id: 9, error: { code: -32600 } });
    expect(String((messageOf(refused.text).error as { message: string }).message)).toMatch(
      /Request too large: one message may be at most 4 MiB \(this one is 100\.0 MiB/,
    );
    const ping = await post(JSON.stringify({ jsonrpc: "2.0", id: 10, method: "ping" })).response;
    expect(messageOf(ping.text)).toMatchObject({ id: 10, result: {} });
  });
});
