// `keel mcp --http`: the official SDK client over Streamable HTTP (list, call, errors, elicitation,
// progress, cancellation), and the HTTP edge itself (token, Host check, sessions, bad bodies).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  ProgressNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAlive, makeWorld, TEST_ENTRY, waitFor } from "./testing/harness.ts";
import { initializeRequest, postRaw } from "./testing/inProcessHttp.ts";

interface Running {
  child: ChildProcess;
  url: string;
  token: string;
  stderr: () => string;
}

async function startHttp(args: string[], env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, [TEST_ENTRY, "--http", "0", ...args], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  // A start takes a few seconds on a busy machine (each spawn strips the types of the sources anew).
  await waitFor(() => /token: /.test(stderr), "keel mcp --http to start", 25_000);
  const url = /at (http:\/\/\S+\/mcp)/.exec(stderr)![1]!;
  const token = /token: (\S+)/.exec(stderr)![1]!;
  return { child, url, token, stderr: () => stderr };
}

describe("keel mcp --http", () => {
  let server: Running;
  let world: ReturnType<typeof makeWorld>;
  let client: Client;
  const progress: { message?: string }[] = [];
  let elicitations = 0;

  beforeAll(async () => {
    world = makeWorld();
    server = await startHttp(["--cwd", world.project, "--allow", "Sleep"], world.env);
    client = new Client({ name: "http-test", version: "1" }, { capabilities: { elicitation: { form: {} } } });
    client.setNotificationHandler(ProgressNotificationSchema, async (notification) => {
      progress.push(notification.params);
    });
    client.setRequestHandler(ElicitRequestSchema, async () => {
      elicitations++;
      return { action: "accept", content: { decision: "allow_once" } };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
    server?.child.kill();
  });

  it("listens on 127.0.0.1 and prints a generated token", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.token.length).toBeGreaterThanOrEqual(24);
  });

  it.each([
    ["no token", {}],
    ["a wrong token", { authorization: "Bearer not-the-token" }],
    ["another scheme", { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }],
  ])("refuses %s with 401", async (_name, headers) => {
    const response = await postRaw(server.url, initializeRequest("2025-11-25"), headers);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("refuses a foreign Host header (DNS rebinding) with 403", async () => {
    // fetch may not set Host; node:http sends what it is given.
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        server.url,
        {
          method: "POST",
          headers: {
            host: "evil.example",
            authorization: `Bearer ${server.token}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on("error", reject);
      request.end(JSON.stringify(initializeRequest("2025-11-25")));
    });
    expect(status).toBe(403);
  });

  it.each([
    ["a body that is not JSON", "{oops", undefined, 400, -32700],
    ["a request without a session", { jsonrpc: "2.0", id: 5, method: "tools/list" }, undefined, 400, -32000],
    ["an unknown session", { jsonrpc: "2.0", id: 5, method: "tools/list" }, "no-such-session", 404, -32001],
  ])("answers %s with a JSON-RPC error", async (_name, body, session, status, code) => {
    const response = await postRaw(server.url, body, {
      authorization: `Bearer ${server.token}`,
      ...(session ? { "mcp-session-id": session } : {}),
    });
    expect(response.status).toBe(status);
    expect(response.json?.error).toMatchObject({ code });
  });

  it("negotiates an older protocol revision", async () => {
    const response = await postRaw(server.url, initializeRequest("2025-03-26"), {
      authorization: `Bearer ${server.token}`,
    });
    expect(response.status).toBe(200);
    expect(response.json?.result).toMatchObject({ protocolVersion: "2025-03-26" });
    expect(response.headers.get("mcp-session-id")).toBeTruthy();
  });

  it("lists and calls tools, with structured content", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["Echo", "Read", "Sleep", "Touch"]),
    );
    const result = await client.callTool({ name: "Echo", arguments: { text: "over http" } });
    expect(result.structuredContent).toEqual({ text: "over http", length: 9 });
  });

  it("answers an unknown tool with InvalidParams", async () => {
    await expect(client.callTool({ name: "Nope", arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it("asks through elicitation on the call's stream", async () => {
    const before = elicitations;
    const result = await client.callTool({ name: "Touch", arguments: { name: "via-http" } });
    expect(result.isError).toBeFalsy();
    expect(elicitations).toBe(before + 1);
    expect(existsSync(join(world.project, "via-http"))).toBe(true);
  });

  it("sends progress", async () => {
    progress.length = 0;
    await client.callTool({ name: "Steps", arguments: { steps: 2 } }, CallToolResultSchema, {
      onprogress: () => {},
    });
    expect(progress.map((p) => p.message)).toEqual(["step 1", "step 2"]);
  });

  it("kills a running sleep when the call is cancelled", async () => {
    progress.length = 0;
    const abort = new AbortController();
    const call = client
      .callTool({ name: "Sleep", arguments: { seconds: 30 } }, CallToolResultSchema, {
        signal: abort.signal,
        onprogress: () => {},
      })
      .catch((error: unknown) => error);
    await waitFor(() => progress.length > 0, "the sleep's pid");
    const pid = Number(/pid (\d+)/.exec(progress[0]!.message ?? "")![1]);
    expect(isAlive(pid)).toBe(true);
    abort.abort();
    expect(await call).toBeInstanceOf(Error);
    await waitFor(() => !isAlive(pid), "the sleep process to die");
  });
});

describe("keel mcp --http with a given token", () => {
  it("uses KEEL_MCP_TOKEN and does not print it", async () => {
    const world = makeWorld();
    const server = await startHttp(["--cwd", world.project], {
      ...world.env,
      KEEL_MCP_TOKEN: "token-from-the-environment",
    });
    try {
      expect(server.stderr()).not.toContain("token-from-the-environment");
      const ok = await postRaw(server.url, initializeRequest("2025-11-25"), {
        authorization: "Bearer token-from-the-environment",
      });
      expect(ok.status).toBe(200);
    } finally {
      server.child.kill();
    }
  });
});

describe("keel mcp --http --no-auth", () => {
  it("is refused on an address other machines can reach", async () => {
    const world = makeWorld();
    const child = spawn(process.execPath, [TEST_ENTRY, "--http", "0.0.0.0:0", "--no-auth"], {
      env: world.env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/--no-auth is allowed only on a loopback address/);
  });

  it("serves loopback without a token, with a warning", async () => {
    const world = makeWorld();
    const child = spawn(process.execPath, [TEST_ENTRY, "--http", "127.0.0.1:0", "--no-auth"], {
      env: world.env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    try {
      await waitFor(() => /warning: --no-auth/.test(stderr), "the --no-auth warning", 25_000);
      const url = /at (http:\/\/\S+\/mcp)/.exec(stderr)![1]!;
      expect(stderr).not.toMatch(/token: /);
      const response = await postRaw(url, initializeRequest("2025-11-25"));
      expect(response.status).toBe(200);
    } finally {
      child.kill();
    }
  });
});
