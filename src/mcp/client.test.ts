// Keel's MCP client against real servers: tiny scripts that crash, hang or write garbage, a scripted
// server ($ref schemas, crashes mid-session, slow calls), and @modelcontextprotocol/server-everything
// and server-filesystem from npm, over stdio, Streamable HTTP and SSE. Calls go through the pipeline.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProgressEvent, type ResultEvent, runToolUse } from "../pipeline/runToolUse.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import { resultText } from "../tool/messages.ts";
import { tempFolderForTest } from "../tool/testing/tempFolder.ts";
import { connectMcpServers, type McpClientManager, withMcpClients } from "./client.ts";
import { type McpServerSpec, parseServerEntry } from "./config.ts";
import { REPO, waitFor } from "./testing/harness.ts";

const SERVERS = join(REPO, "src/mcp/testing/servers");
const EVERYTHING = join(REPO, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FILESYSTEM = join(REPO, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

function stdio(name: string, args: string[], extra: Record<string, unknown> = {}): McpServerSpec {
  return parseServerEntry(name, { command: process.execPath, args, ...extra }, "test");
}

async function run(
  manager: McpClientManager,
  name: string,
  input: unknown,
  options: { allow?: string[] } = {},
): Promise<{ result: ResultEvent; progress: ProgressEvent[] }> {
  const tools = manager.tools();
  const context = withMcpClients(
    createToolUseContext({ tools, cwd: tmpdir(), allow: options.allow ?? [] }),
    manager,
  );
  const progress: ProgressEvent[] = [];
  let result: ResultEvent | undefined;
  for await (const event of runToolUse({ type: "tool_use", id: `t_${name}`, name, input }, context)) {
    if (event.type === "result") result = event;
    else progress.push(event);
  }
  return { result: result!, progress };
}

const text = (result: ResultEvent) => resultText(result.block.content);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe("isolation: broken servers are reported, the rest goes on", () => {
  let manager: McpClientManager;

  beforeAll(async () => {
    const quick = { startupTimeout: 1_500 };
    manager = await connectMcpServers([
      stdio("crasher", [join(SERVERS, "crash.mjs")]),
      stdio("hanger", [join(SERVERS, "hang.mjs")], quick),
      stdio("garbler", [join(SERVERS, "garbage.mjs")], quick),
      parseServerEntry("missing", { command: "/no/such/program" }, "test"),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a ${VAR} reference on purpose
      parseServerEntry("unset", { command: "${KEEL_TEST_SURELY_UNSET_VAR}" }, "test", {}),
      stdio("good", [join(SERVERS, "scripted.mjs")]),
    ]);
  });
  afterAll(() => manager.close());

  it.each([
    ["crasher", /exited|closed[\s\S]*could not open the database/],
    ["hanger", /no answer within 2 s/],
    ["garbler", /bad data/],
    ["missing", /could not start: the command "\/no\/such\/program" was not found/],
    ["unset", /KEEL_TEST_SURELY_UNSET_VAR not set/],
  ])("%s is failed with a reason a person can act on", (name, reason) => {
    const status = manager.status().find((server) => server.name === name)!;
    expect(status.state).toBe("failed");
    expect(status.error).toMatch(reason);
    expect(status.tools).toEqual([]);
  });

  it("the working server is connected and its tools are usable", async () => {
    expect(manager.status().find((server) => server.name === "good")!.state).toBe("connected");
    expect(manager.tools().every((tool) => tool.name.startsWith("mcp__good__"))).toBe(true);
    const { result } = await run(manager, "mcp__good__pid", {}, { allow: ["mcp__good"] });
    expect(result.isError).toBe(false);
  });
});

describe("a scripted server: schemas, flags, permissions, errors, timeouts, reconnection", () => {
  let manager: McpClientManager;
  const allow = ["mcp__scripted"];

  beforeAll(async () => {
    manager = await connectMcpServers([stdio("scripted", [join(SERVERS, "scripted.mjs")], { timeout: 400 })]);
  });
  afterAll(() => manager.close());

  it("names tools mcp__<server>__<tool> and keeps the raw JSON Schema with $defs", () => {
    const greet = manager.tools().find((tool) => tool.name === "mcp__scripted__greet")!;
    expect(greet.isMcp).toBe(true);
    expect(greet.mcpInfo).toEqual({ serverName: "scripted", toolName: "greet" });
    expect(greet.inputJSONSchema).toMatchObject({ $defs: { Person: { required: ["name"] } } });
  });

  it.each([
    ["greet", { readOnly: true, safe: true, destructive: false }],
    ["crash", { readOnly: false, safe: false, destructive: false }],
    ["slow", { readOnly: false, safe: false, destructive: true }],
  ])("maps the annotations of %s (fail-closed where absent)", (name, flags) => {
    const tool = manager.tools().find((t) => t.name === `mcp__scripted__${name}`)!;
    expect(tool.isReadOnly({})).toBe(flags.readOnly);
    expect(tool.isConcurrencySafe({})).toBe(flags.safe);
    expect(tool.isDestructive({})).toBe(flags.destructive);
  });

  it("checks input against the raw schema, following $ref", async () => {
    const bad = await run(manager, "mcp__scripted__greet", { person: { age: -1 } }, { allow });
    expect(bad.result.isError).toBe(true);
    expect(bad.result.errorCode).toBe("invalid_input");
    expect(text(bad.result)).toMatch(/name/);
    const good = await run(manager, "mcp__scripted__greet", { person: { name: "Ada" } }, { allow });
    expect(text(good.result)).toBe("Hello, Ada!");
  });

  it.each([
    [[], "mcp__scripted__pid", true],
    [["mcp__scripted__pid"], "mcp__scripted__pid", false],
    [["mcp__scripted__pid"], "mcp__scripted__greet", true],
    [["mcp__scripted"], "mcp__scripted__greet", false],
  ])("with allow rules %j, %s is refused: %s", async (rules, name, refused) => {
    const { result } = await run(manager, name, { person: { name: "x" } }, { allow: rules });
    expect(result.errorCode === "permission_denied").toBe(refused);
  });

  it("turns an isError result into a tool error", async () => {
    const { result } = await run(manager, "mcp__scripted__fail", {}, { allow });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/the widget is broken/);
  });

  it("times a slow call out and the server stays usable", async () => {
    const { result } = await run(manager, "mcp__scripted__slow", {}, { allow });
    expect(result.errorCode).toBe("timeout");
    expect(text(result)).toMatch(/no answer within/);
    expect((await run(manager, "mcp__scripted__pid", {}, { allow })).result.isError).toBe(false);
  });

  it("restarts a server that died on the next call", async () => {
    const before = text((await run(manager, "mcp__scripted__pid", {}, { allow })).result);
    const crash = await run(manager, "mcp__scripted__crash", {}, { allow });
    expect(crash.result.errorCode).toBe("mcp_disconnected");
    await waitFor(() => manager.status()[0]!.state === "disconnected", "the drop to be noticed");
    const after = await run(manager, "mcp__scripted__pid", {}, { allow });
    expect(after.result.isError).toBe(false);
    expect(text(after.result)).not.toBe(before);
    expect(manager.status()[0]!.state).toBe("connected");
  });
});

describe("@modelcontextprotocol/server-everything over stdio", () => {
  let manager: McpClientManager;
  const allow = ["mcp__everything"];

  beforeAll(async () => {
    manager = await connectMcpServers([stdio("everything", [EVERYTHING, "stdio"])]);
  });
  afterAll(() => manager.close());

  it("offers its tools and the resource tools", () => {
    const names = manager.tools().map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "mcp__everything__echo",
        "mcp__everything__get-sum",
        "ListMcpResources",
        "ReadMcpResource",
      ]),
    );
    const sum = manager.tools().find((tool) => tool.name === "mcp__everything__get-sum")!;
    expect(sum.isReadOnly({})).toBe(true);
    expect(sum.isConcurrencySafe({})).toBe(true);
  });

  it("calls a tool through the pipeline", async () => {
    const { result } = await run(manager, "mcp__everything__get-sum", { a: 2, b: 40 }, { allow });
    expect(text(result)).toMatch(/42/);
  });

  it("maps images to image blocks", async () => {
    const { result } = await run(manager, "mcp__everything__get-tiny-image", {}, { allow });
    const blocks = result.block.content;
    expect(
      Array.isArray(blocks) &&
        blocks.some((block) => block.type === "image" && block.source.media_type === "image/png"),
    ).toBe(true);
  });

  it("keeps structured content and its text copy", async () => {
    const { result } = await run(
      manager,
      "mcp__everything__get-structured-content",
      { location: "New York" },
      { allow },
    );
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toBeDefined();
    expect(text(result)).toMatch(/temperature/i);
  });

  it("describes resource links and embedded resources", async () => {
    const links = await run(manager, "mcp__everything__get-resource-links", { count: 2 }, { allow });
    expect(text(links.result)).toMatch(/\[Resource link: .*<demo:\/\//);
    const embedded = await run(
      manager,
      "mcp__everything__get-resource-reference",
      { resourceType: "Text", resourceId: 1 },
      { allow },
    );
    expect(text(embedded.result)).toMatch(/\[Resource demo:\/\//);
  });

  it("forwards progress", async () => {
    const { result, progress } = await run(
      manager,
      "mcp__everything__trigger-long-running-operation",
      { duration: 0.2, steps: 2 },
      { allow },
    );
    expect(result.isError).toBe(false);
    expect(progress.map((event) => (event.data as { progress: number }).progress)).toEqual([1, 2]);
  });

  it("lists and reads resources", async () => {
    const listed = await run(manager, "ListMcpResources", {});
    expect(listed.result.isError).toBe(false);
    const uri = /everything: (demo:\/\/\S+)/.exec(text(listed.result))?.[1];
    expect(uri).toBeDefined();
    const read = await run(manager, "ReadMcpResource", { server: "everything", uri });
    expect(read.result.isError).toBe(false);
    expect(text(read.result).length).toBeGreaterThan(0);
    const blob = await run(manager, "ReadMcpResource", {
      server: "everything",
      uri: "demo://resource/dynamic/blob/3",
    });
    const saved = /saved to (\S+)\]/.exec(text(blob.result))?.[1];
    expect(saved && existsSync(saved)).toBe(true);
    const unknown = await run(manager, "ReadMcpResource", { server: "nope", uri });
    expect(text(unknown.result)).toMatch(/Servers with resources: "everything"/);
  });
});

describe("remote transports and server-filesystem", () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill();
  });

  async function startEverything(mode: "streamableHttp" | "sse"): Promise<number> {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING, mode], {
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await waitFor(() => /listening|running/i.test(stderr), `server-everything ${mode} to listen`);
    return port;
  }

  it.each([
    ["http", "streamableHttp", "/mcp"],
    ["sse", "sse", "/sse"],
  ] as const)("connects over %s", async (type, mode, path) => {
    const port = await startEverything(mode);
    const manager = await connectMcpServers([
      parseServerEntry(
        "remote",
        { type, url: `http://127.0.0.1:${port}${path}`, headers: { "X-Test": "1" } },
        "test",
      ),
    ]);
    try {
      expect(manager.status()[0]).toMatchObject({ state: "connected", transport: type });
      const { result } = await run(
        manager,
        "mcp__remote__echo",
        { message: "over the wire" },
        { allow: ["mcp__remote"] },
      );
      expect(text(result)).toMatch(/over the wire/);
    } finally {
      await manager.close();
    }
  });

  it("reads a file with server-filesystem", async () => {
    const dir = tempFolderForTest("keel-fs-");
    writeFileSync(join(dir, "note.txt"), "filesystem server says hi\n");
    const manager = await connectMcpServers([stdio("fs", [FILESYSTEM, dir])]);
    try {
      const tool = manager.tools().find((t) => t.name === "mcp__fs__read_text_file")!;
      expect(tool.isReadOnly({})).toBe(true);
      const { result } = await run(
        manager,
        tool.name,
        { path: join(dir, "note.txt") },
        { allow: ["mcp__fs__read_text_file"] },
      );
      expect(text(result)).toMatch(/filesystem server says hi/);
      const write = await run(manager, "mcp__fs__write_file", { path: join(dir, "x.txt"), content: "x" });
      expect(write.result.errorCode).toBe("permission_denied");
    } finally {
      await manager.close();
    }
  });
});
