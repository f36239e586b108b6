// HTTP sessions of `keel mcp --http` with the official SDK client over real HTTP: the idle timeout, the
// cap on live sessions, DELETE from Keel's own client, and the stream of a cancelled call being closed.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ProgressNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { McpConnection } from "./connection.ts";
import { isAlive, waitFor } from "./testing/harness.ts";
import {
  type InProcessServer,
  initializeRequest,
  postRaw,
  startInProcessHttp,
} from "./testing/inProcessHttp.ts";

/** The JSON-RPC error message of a reply ("" when there is none). */
const errorText = (reply: { json: Record<string, unknown> | undefined }) =>
  String((reply.json?.error as { message?: string } | undefined)?.message ?? "");

let server: InProcessServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function connectSdkClient(
  url: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "sessions-test", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

describe("keel mcp --http sessions", () => {
  it("ends a session that sat idle past the timeout; its id then gets 404", async () => {
    server = await startInProcessHttp({ sessionIdleMs: 200 });
    const { client, transport } = await connectSdkClient(server.url);
    await client.listTools();
    const id = transport.sessionId!;
    expect(server.sessionCount()).toBe(1);
    await waitFor(() => server!.sessionCount() === 0, "the idle session to end");
    expect(server.logs.join("\n")).toContain(`session ${id} ended after 200 ms without requests`);
    const late = await postRaw(
      server.url,
      { jsonrpc: "2.0", id: 9, method: "tools/list" },
      { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
    );
    expect(late.status).toBe(404);
    expect(late.json?.error).toMatchObject({ code: -32001 });
    await client.close();
  });

  it("does not end a session while one of its calls is running", async () => {
    server = await startInProcessHttp({ sessionIdleMs: 150 });
    const { client } = await connectSdkClient(server.url);
    const result = await client.callTool({ name: "Sleep", arguments: { seconds: 0.6 } });
    expect(result.isError).toBeFalsy();
    expect(server.sessionCount()).toBe(1);
    await client.close();
  });

  it("refuses a session past --max-sessions with 503 and says what to do; a DELETE frees a place", async () => {
    server = await startInProcessHttp({ maxSessions: 2 });
    const first = await postRaw(server.url, initializeRequest("2025-11-25"));
    const second = await postRaw(server.url, initializeRequest("2025-11-25"));
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await postRaw(server.url, initializeRequest("2025-11-25", 3));
    expect(third.status).toBe(503);
    expect(third.headers.get("retry-after")).toBeTruthy();
    expect(third.json).toMatchObject({ id: 3, error: { code: -32000 } });
    expect(String(errorText(third))).toMatch(/Too many MCP sessions: all 2 are in use .*DELETE/);
    const deleted = await fetch(server.url, {
      method: "DELETE",
      headers: {
        "mcp-session-id": first.headers.get("mcp-session-id")!,
        "mcp-protocol-version": "2025-11-25",
      },
    });
    expect(deleted.status).toBe(200);
    expect(server.sessionCount()).toBe(1);
    expect((await postRaw(server.url, initializeRequest("2025-11-25"))).status).toBe(200);
  });

  it("Keel's own client ends its session with DELETE when it closes", async () => {
    server = await startInProcessHttp({ token: "secret-token" });
    const connection = new McpConnection({
      name: "keel-itself",
      origin: "test",
      config: { type: "http", url: server.url, headers: { authorization: "Bearer secret-token" } },
    });
    await connection.connect();
    expect(connection.state).toBe("connected");
    expect(server.sessionCount()).toBe(1);
    await connection.close();
    expect(server.sessionCount()).toBe(0);
  });

  it("closes the SSE stream of a call the client cancelled, and the call's process dies", async () => {
    server = await startInProcessHttp();
    const init = await postRaw(server.url, initializeRequest("2025-11-25"));
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": init.headers.get("mcp-session-id")!,
      "mcp-protocol-version": "2025-11-25",
    };
    await fetch(server.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    const call = await fetch(server.url, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "Sleep", arguments: { seconds: 30 }, _meta: { progressToken: "p" } },
      }),
    });
    const reader = call.body!.getReader();
    let text = "";
    while (!/pid \d+/.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended early: ${text}`);
      text += new TextDecoder().decode(value);
    }
    const pid = Number(/pid (\d+)/.exec(text)![1]);
    await fetch(server.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } }),
    });
    // The stream ends without a response (a cancelled request gets none), instead of staying open forever.
    let rest = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).not.toContain('"id":7');
    await waitFor(() => !isAlive(pid), "the sleep process to die");
  });

  it("the SDK client's cancelled call leaves the session idle, so it can expire", async () => {
    server = await startInProcessHttp({ sessionIdleMs: 300 });
    const { client } = await connectSdkClient(server.url);
    const progress: string[] = [];
    client.setNotificationHandler(ProgressNotificationSchema, async (n) => {
      progress.push(n.params.message ?? "");
    });
    const abort = new AbortController();
    const call = client
      .callTool({ name: "Sleep", arguments: { seconds: 30 } }, CallToolResultSchema, {
        signal: abort.signal,
        onprogress: () => {},
      })
      .catch((error: unknown) => error);
    await waitFor(() => progress.length > 0, "the call to start");
    abort.abort();
    expect(await call).toBeInstanceOf(Error);
    await waitFor(() => server!.sessionCount() === 0, "the session to expire after the cancelled call");
    await client.close();
  });
});
