// `keel mcp --http` with real clients:
// 1. First tools/call of a client that declares roots, against a later call of the same client (the
//    reference). Each of 20 fresh SDK clients connects, lists the tools (as clients do), then Reads a
//    file inside its own root three times. Before the fix the first call waited ~5 s for a roots/list
//    request that never reached the client. Target: first call <= 2x a later call (medians).
//    Server: the real CLI entry (`keel mcp --http 127.0.0.1:0`, from the sources) in its own process.
// 2. Live heap after 5,000 abandoned sessions (initialize, initialized, tools/list, never DELETE), once
//    they expired, against the heap at start (the reference). Server: the same serveHttp in this
//    process, with a 60 s idle timeout (longer than opening them takes, so all are live at once, and
//    the run takes minutes, not the default 30). Target: at most 1.10x (within 10% above; lower is no leak).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { serveHttp } from "../src/mcp/serveHttp.ts";
import { createMcpSessionContext } from "../src/mcp/sessionContext.ts";
import { buildPermissionContext } from "../src/tool/createContext.ts";
import type { Tool } from "../src/tool/Tool.ts";
import { builtinTools } from "../src/tools/builtinTools.ts";
import { printTable, ratio, summarize } from "./stats.ts";

const REPO = new URL("../", import.meta.url).pathname;
const CLIENTS = Number(process.env.MCP_HTTP_BENCH_CLIENTS ?? 20);
const SESSIONS = Number(process.env.MCP_HTTP_BENCH_SESSIONS ?? 5_000);
const PARALLEL = 16;
const IDLE_MS = Number(process.env.MCP_HTTP_BENCH_IDLE_MS ?? 60_000);
const TOKEN = "bench-token";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

async function liveHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

async function startCli(project: string, home: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [join(REPO, "src/cli/mcpEntry.ts"), "--cwd", project, "--http", "127.0.0.1:0", "--token", TOKEN],
    { env: { ...process.env, KEEL_HOME: home }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const found = /serving \d+ tools at (\S+)/.exec(stderr);
      if (found) resolve(found[1]!);
    });
    child.once("exit", () => reject(new Error(`keel mcp exited:\n${stderr}`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    url,
    stop: async () => {
      child.kill();
      await exited;
    },
  };
}

async function firstCallLatency(): Promise<void> {
  const base = mkdtempSync(join(tmpdir(), "keel-mcp-http-bench-"));
  const project = join(base, "project");
  const home = join(base, "home");
  mkdirSync(project);
  mkdirSync(home);
  const server = await startCli(project, home);
  const first: number[] = [];
  const later: number[] = [];
  try {
    for (let i = 0; i < CLIENTS; i++) {
      const root = mkdtempSync(join(base, "root-"));
      const file = join(root, "notes.txt");
      writeFileSync(file, "x".repeat(10_240));
      const client = new Client(
        { name: "bench", version: "1" },
        { capabilities: { roots: { listChanged: true } } },
      );
      client.setRequestHandler(ListRootsRequestSchema, async () => ({
        roots: [{ uri: pathToFileURL(root).href }],
      }));
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        }),
      );
      await client.listTools();
      for (let call = 0; call < 3; call++) {
        const started = performance.now();
        const result = await client.callTool({ name: "Read", arguments: { file_path: file } });
        const ms = performance.now() - started;
        if (result.isError)
          throw new Error(`Read inside the client's root was refused: ${JSON.stringify(result.content)}`);
        (call === 0 ? first : later).push(ms);
      }
      await client.close();
    }
  } finally {
    await server.stop();
    rmSync(base, { recursive: true, force: true });
  }
  const firstStats = summarize(first);
  const laterStats = summarize(later);
  process.stdout.write(
    `\n1. tools/call over HTTP, client declaring roots (${CLIENTS} clients, Read of 10 KB in its root)\n`,
  );
  printTable([
    { call: "first (roots asked on its stream)", median_ms: firstStats.median, p99_ms: firstStats.p99 },
    { call: "later (reference)", median_ms: laterStats.median, p99_ms: laterStats.p99 },
  ]);
  process.stdout.write(
    `first / later (medians): ${ratio(firstStats.median, laterStats.median)} (target <= 2x); slowest first call ${Math.max(...first).toFixed(1)} ms\n`,
  );
}

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
  await response.text();
  return response;
}

async function abandonedSessions(): Promise<void> {
  const project = mkdtempSync(join(tmpdir(), "keel-mcp-heap-bench-"));
  const tools = builtinTools().filter((tool) => tool.requiresAgentLoop !== true) as Tool[];
  const permission = buildPermissionContext({ cwd: project });
  const server = await serveHttp({
    host: "127.0.0.1",
    port: 0,
    token: TOKEN,
    createSession: () => ({ tools, context: createMcpSessionContext(tools, permission), services: {} }),
    sessionIdleMs: IDLE_MS,
    maxSessions: SESSIONS + 10,
  });
  const auth = { authorization: `Bearer ${TOKEN}` };
  const session = async () => {
    const init = await post(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "abandoned", version: "1" },
        },
      },
      auth,
    );
    const headers = {
      ...auth,
      "mcp-session-id": init.headers.get("mcp-session-id")!,
      "mcp-protocol-version": "2025-11-25",
    };
    await post(server.url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    await post(server.url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, headers);
    return headers;
  };
  // Warm up the code paths, the tool listing and the sockets (those sessions are ended with DELETE).
  for (let i = 0; i < 50; i++) {
    const headers = await session();
    await fetch(server.url, { method: "DELETE", headers });
  }
  const atStart = await liveHeap();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next++ < SESSIONS) await session();
    }),
  );
  const opened = performance.now() - started;
  const live = server.sessionCount();
  const withSessions = await liveHeap();
  while (server.sessionCount() > 0) await new Promise((resolve) => setTimeout(resolve, 100));
  const afterExpiry = await liveHeap();
  await server.close();
  rmSync(project, { recursive: true, force: true });
  const mb = (bytes: number) => bytes / (1024 * 1024);
  process.stdout.write(
    `\n2. live heap, ${SESSIONS} abandoned sessions (opened in ${(opened / 1000).toFixed(1)} s, idle timeout ${IDLE_MS / 1000} s)\n`,
  );
  printTable([
    { when: "at start (reference)", heap_mb: mb(atStart), sessions: 0 },
    { when: "sessions open", heap_mb: mb(withSessions), sessions: live },
    { when: "after they expired", heap_mb: mb(afterExpiry), sessions: server.sessionCount() },
  ]);
  process.stdout.write(
    `after / start: ${ratio(afterExpiry, atStart)} (target: at most 1.10x, nothing of the sessions kept)\n`,
  );
}

await firstCallLatency();
await abandonedSessions();
