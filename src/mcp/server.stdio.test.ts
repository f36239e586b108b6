// The official SDK client driving `keel mcp` over stdio: the real CLI entry, and the same command
// serving small test tools beside Read (structured output, progress, a sleep to cancel, approvals).
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  CallToolResultSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ProgressNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectStdio,
  isAlive,
  KEEL_ENTRY,
  makeWorld,
  processGroupOf,
  type StdioSession,
  waitFor,
} from "./testing/harness.ts";

type Text = { type: "text"; text: string };
const textOf = (result: unknown) =>
  (((result as { content?: Text[] }).content as Text[] | undefined) ?? [])
    .map((block) => block.text)
    .join("\n");

/** Every audit record written under this home so far. */
function readAuditLines(home: string): Array<Record<string, unknown>> {
  const dir = join(home, ".keel", "audit");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((file) => readFileSync(join(dir, file), "utf8").split("\n"))
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("keel mcp (the CLI entry) over stdio, raw JSON-RPC", () => {
  let child: ChildProcessWithoutNullStreams;
  const responses = new Map<number | string | null, Record<string, unknown>[]>();
  let buffer = "";

  const send = (line: string) => child.stdin.write(`${line}\n`);
  const response = async (id: number | null) => {
    await waitFor(() => (responses.get(id)?.length ?? 0) > 0, `a response to id ${id}`);
    return responses.get(id)!.shift()!;
  };

  beforeAll(() => {
    const world = makeWorld();
    child = spawn(process.execPath, [KEEL_ENTRY, "--cwd", world.project], { env: world.env });
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      let newline = buffer.indexOf("\n");
      while (newline !== -1) {
        const message = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
        buffer = buffer.slice(newline + 1);
        const id = (message.id ?? null) as number | null;
        responses.set(id, [...(responses.get(id) ?? []), message]);
        newline = buffer.indexOf("\n");
      }
    });
  });
  afterAll(() => child.kill());

  it("negotiates an older protocol revision for an older client", async () => {
    send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2024-11-05",
          capabilities: {},
          clientInfo: { name: "old", version: "0" },
        },
      }),
    );
    const init = (await response(1)).result as { protocolVersion: string; serverInfo: { name: string } };
    expect(init.protocolVersion).toBe("2024-11-05");
    expect(init.serverInfo.name).toBe("keel");
    send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
    const list = (await response(2)).result as { tools: { annotations?: object }[] };
    for (const tool of list.tools) expect(tool.annotations).toBeDefined();
  });

  it.each([
    ["a line that is not JSON", "{not json", -32700],
    ["JSON that is not JSON-RPC", JSON.stringify({ hello: "world" }), -32600],
  ])("answers %s with a JSON-RPC error and keeps serving", async (_name, line, code) => {
    send(line);
    const error = (await response(null)).error as { code: number };
    expect(error.code).toBe(code);
    send(JSON.stringify({ jsonrpc: "2.0", id: 10 + code, method: "ping" }));
    expect((await response(10 + code)).result).toEqual({});
  });

  it.each([
    ["an unknown method", { method: "no/such/method" }, -32601],
    ["tools/call without a name", { method: "tools/call", params: { arguments: {} } }, -32602],
    ["an unknown tool", { method: "tools/call", params: { name: "NoSuchTool", arguments: {} } }, -32602],
  ])("answers %s with the right error code", async (_name, request, code) => {
    const id = 100 + Math.abs(code) + Object.keys(request).length + JSON.stringify(request).length;
    send(JSON.stringify({ jsonrpc: "2.0", id, ...request }));
    const error = (await response(id)).error as { code: number; message: string };
    expect(error.code).toBe(code);
    expect(error.message).not.toMatch(/MCP error .*MCP error/);
  });
});

describe("keel mcp with test tools over stdio (no elicitation)", () => {
  let session: StdioSession;
  let world: ReturnType<typeof makeWorld>;

  // Recorded straight from the wire: the SDK client drops progress that arrives in the same read as the response.
  const progress: { message?: string }[] = [];

  beforeAll(async () => {
    world = makeWorld();
    session = await connectStdio({
      args: ["--cwd", world.project, "--allow", "Sleep", "--allow", "Bash(sleep:*)"],
      env: world.env,
      setup: (client) =>
        client.setNotificationHandler(ProgressNotificationSchema, async (notification) => {
          progress.push(notification.params);
        }),
    });
  });
  afterAll(() => session.close());

  it("lists every tool with annotations from its flags and an output schema where it has one", async () => {
    const { tools } = await session.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()]).toEqual(expect.arrayContaining(["Echo", "Steps", "Sleep", "Touch", "Read"]));
    // Tools that steer Keel's own agent loop are not served.
    for (const loopOnly of ["Agent", "SendMessage", "EnterPlanMode", "ExitPlanMode", "ToolSearch"])
      expect(byName.has(loopOnly)).toBe(false);
    expect(byName.get("Echo")!.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(byName.get("Echo")!.outputSchema).toMatchObject({
      type: "object",
      properties: { text: {}, length: {} },
    });
    // Touch declares isDestructive: false; Sleep says nothing, so it reports MCP's fail-closed value.
    expect(byName.get("Touch")!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(byName.get("Sleep")!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get("Read")!.annotations).toMatchObject({ readOnlyHint: true });
    for (const tool of tools) expect(tool.description?.length).toBeGreaterThan(0);
  });

  it("returns structured content with a text copy", async () => {
    const result = await session.client.callTool({ name: "Echo", arguments: { text: "hi there" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ text: "hi there", length: 8 });
    expect(textOf(result)).toBe("hi there");
  });

  it("reports invalid arguments as a tool error the model can act on", async () => {
    const result = await session.client.callTool({ name: "Echo", arguments: { text: 42 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Echo/);
    expect(textOf(result)).toMatch(/text/);
  });

  it("reads a file through the pipeline with the real Read tool, in full every time", async () => {
    // The client's conversation is unknown here: no "unchanged since last read" stub.
    for (let i = 0; i < 2; i++) {
      const result = await session.client.callTool({
        name: "Read",
        arguments: { file_path: join(world.project, "hello.txt") },
      });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toContain("hello from the project");
    }
  });

  it("writes every call to the audit log", async () => {
    await session.client.callTool({ name: "Echo", arguments: { text: "audited" } });
    const dir = join(world.home, ".keel", "audit");
    await waitFor(() => existsSync(dir) && readdirSync(dir).length > 0, "the audit log");
    const lines = readdirSync(dir).flatMap((file) =>
      readFileSync(join(dir, file), "utf8").trim().split("\n"),
    );
    expect(lines.map((line) => JSON.parse(line) as { tool: string })).toEqual(
      expect.arrayContaining([expect.objectContaining({ tool: "Echo", behavior: "allow" })]),
    );
  });

  it("sends progress notifications when the client asked for them", async () => {
    progress.length = 0;
    const result = await session.client.callTool(
      { name: "Steps", arguments: { steps: 3 } },
      CallToolResultSchema,
      {
        onprogress: () => {},
      },
    );
    expect(textOf(result)).toBe("3 steps done");
    expect(progress.map((p) => p.message)).toEqual(["step 1", "step 2", "step 3"]);
  });

  it("sends no progress when the client did not ask for it", async () => {
    progress.length = 0;
    await session.client.callTool({ name: "Steps", arguments: { steps: 2 } });
    expect(progress).toEqual([]);
  });

  it("kills the running process group when the client cancels the call", async () => {
    const abort = new AbortController();
    let pid = 0;
    progress.length = 0;
    const call = session.client
      .callTool({ name: "Sleep", arguments: { seconds: 30 } }, CallToolResultSchema, {
        signal: abort.signal,
        onprogress: () => {},
      })
      .catch((error: unknown) => error);
    await waitFor(() => progress.length > 0, "the sleep's pid");
    pid = Number(/pid (\d+)/.exec(progress[0]!.message ?? "")?.[1] ?? 0);
    expect(isAlive(pid)).toBe(true);
    abort.abort("user pressed stop");
    expect(await call).toBeInstanceOf(Error);
    await waitFor(() => !isAlive(pid), "the sleep process to die");
    // The server goes on.
    expect(textOf(await session.client.callTool({ name: "Echo", arguments: { text: "still here" } }))).toBe(
      "still here",
    );
  });

  it("kills a cancelled Bash command's whole process group", async () => {
    const seconds = `30.${process.pid}${Date.now() % 1000}`;
    const abort = new AbortController();
    const call = session.client
      .callTool({ name: "Bash", arguments: { command: `sleep ${seconds}` } }, CallToolResultSchema, {
        signal: abort.signal,
      })
      .catch((error: unknown) => error);
    let pgid = 0;
    await waitFor(() => {
      pgid = processGroupOf(["sleep", seconds]);
      return pgid > 0;
    }, "Bash to start the sleep");
    expect(isAlive(-pgid)).toBe(true);
    abort.abort();
    expect(await call).toBeInstanceOf(Error);
    await waitFor(() => !isAlive(-pgid), "the process group (bash and its sleep) to die");
  });

  it("refuses an approval it cannot ask for, saying how to allow it", async () => {
    const result = await session.client.callTool({ name: "Touch", arguments: { name: "marker" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/cannot ask the user/);
    expect(textOf(result)).toMatch(/--allow/);
    expect(existsSync(join(world.project, "marker"))).toBe(false);
  });
});

describe("keel mcp with an elicitation-capable client that offers roots", () => {
  let session: StdioSession;
  let world: ReturnType<typeof makeWorld>;
  let rootDir: string;
  let outside: string;
  const asked: ElicitRequest["params"][] = [];
  let answer: (request: ElicitRequest["params"]) => {
    action: "accept" | "decline" | "cancel";
    content?: Record<string, string>;
  } = () => ({ action: "decline" });

  beforeAll(async () => {
    world = makeWorld();
    rootDir = join(world.home, "client-root");
    outside = join(world.home, "elsewhere");
    mkdirSync(rootDir);
    mkdirSync(outside);
    writeFileSync(join(rootDir, "in-root.txt"), "inside the client's root\n");
    writeFileSync(join(outside, "secret.txt"), "not shared\n");
    session = await connectStdio({
      args: ["--cwd", world.project],
      env: world.env,
      capabilities: { elicitation: { form: {} }, roots: { listChanged: true } },
      setup: (client) => {
        client.setRequestHandler(ElicitRequestSchema, async (request) => {
          asked.push(request.params);
          return answer(request.params);
        });
        client.setRequestHandler(ListRootsRequestSchema, async () => ({
          roots: [{ uri: pathToFileURL(rootDir).href, name: "client root" }],
        }));
      },
    });
  });
  afterAll(() => session.close());

  it("asks through elicitation and runs the call once allowed", async () => {
    answer = () => ({ action: "accept", content: { decision: "allow_once" } });
    const before = asked.length;
    const result = await session.client.callTool({ name: "Touch", arguments: { name: "allowed-once" } });
    expect(result.isError).toBeFalsy();
    expect(existsSync(join(world.project, "allowed-once"))).toBe(true);
    expect(asked.length).toBe(before + 1);
    expect(asked.at(-1)!.message).toMatch(/Touch/);
    expect(asked.at(-1)!.message).toMatch(/allowed-once/);
  });

  it("refuses when the person declines, passing their reason to the model", async () => {
    answer = () => ({ action: "decline", content: { reason: "not today" } });
    const result = await session.client.callTool({ name: "Touch", arguments: { name: "declined" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/refused/);
    expect(existsSync(join(world.project, "declined"))).toBe(false);
  });

  it("a form closed without an answer (a client with nobody at it) is nobody's answer, not the user's", async () => {
    answer = () => ({ action: "cancel" });
    const result = await session.client.callTool({ name: "Touch", arguments: { name: "closed" } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(
      /Touch was refused: nobody answered the approval question: the MCP client closed the form without an answer/,
    );
    expect(text).toMatch(/such as `claude -p`/);
    expect(text).toMatch(/--allow/);
    expect(text).not.toMatch(/user (refused|dismissed)/);
    expect(existsSync(join(world.project, "closed"))).toBe(false);
    const closed = () =>
      readAuditLines(world.home).find((record) => String(record.inputSummary).includes("closed"));
    await waitFor(() => closed() !== undefined, "the audit record of the refused call");
    const audit = closed();
    expect(audit).toMatchObject({ behavior: "deny", decisionReason: { type: "noPrompter" } });
    expect(String(audit?.decidedBy)).not.toMatch(/^user/);
  });

  it("remembers 'allow for this session' and stops asking", async () => {
    answer = () => ({ action: "accept", content: { decision: "allow_always" } });
    const before = asked.length;
    await session.client.callTool({ name: "Touch", arguments: { name: "first" } });
    await session.client.callTool({ name: "Touch", arguments: { name: "second" } });
    expect(asked.length).toBe(before + 1);
    expect(existsSync(join(world.project, "second"))).toBe(true);
  });

  it("treats the client's roots as working directories", async () => {
    answer = () => ({ action: "decline" });
    const before = asked.length;
    const inRoot = await session.client.callTool({
      name: "Read",
      arguments: { file_path: join(rootDir, "in-root.txt") },
    });
    expect(textOf(inRoot)).toContain("inside the client's root");
    expect(asked.length).toBe(before);
    const elsewhere = await session.client.callTool({
      name: "Read",
      arguments: { file_path: join(outside, "secret.txt") },
    });
    expect(elsewhere.isError).toBe(true);
    expect(asked.length).toBe(before + 1);
  });
});
