// Every surface exports its decisions, through real `keel` processes and a collector on 127.0.0.1:
// `keel hook claude-code`, `keel tool`, `keel mcp` (a real MCP client) and the agent (`keel -p` against
// the scripted model). The short-lived process only spools; the flusher it starts sends, also when the
// collector comes up only later. Managed settings name the endpoint; a project's cannot change it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { startAnthropicServer } from "../agent/testing/anthropicServer.ts";
import { ENTRY, type KeelWorld, keelWorld, runKeel } from "../cli/testing/keelProcess.ts";
import { lockFile, runningFlusher } from "./flusher.ts";
import { spoolCount, spoolRoot } from "./spool.ts";
import { eventually, type OtlpCollector, startHttpCollector } from "./testing/otlpCollector.ts";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function collector(port = 0): Promise<OtlpCollector> {
  const server = await startHttpCollector(port);
  cleanups.push(() => server.close());
  return server;
}

/** A world whose Keel exports to `url`; the flusher it starts waits only briefly for more. */
function telemetryWorld(url: string | undefined, extra: Record<string, string> = {}): KeelWorld {
  const world = keelWorld();
  Object.assign(world.env, {
    KEEL_TELEMETRY_FLUSHER_IDLE_MS: "300",
    ...(url ? { KEEL_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: url } : {}),
    ...extra,
  });
  cleanups.push(async () => {
    // The flusher is this test's own child's child: wait for it to end, or end it.
    const root = spoolRoot(world.env);
    const pid = runningFlusher(root);
    if (pid !== undefined) {
      await eventually(() => runningFlusher(root) === undefined, 10_000).catch(() =>
        process.kill(pid, "SIGTERM"),
      );
    }
  });
  return world;
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
}

function preToolUse(world: KeelWorld, command: string, id: string): string {
  return JSON.stringify({
    session_id: "claude-session-1",
    transcript_path: join(world.home, ".claude", "projects", "p", "claude-session-1.jsonl"),
    cwd: world.project,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: id,
  });
}

describe("every surface exports its decisions", () => {
  it("keel hook claude-code: the process exits after spooling, and its flusher sends the event", async () => {
    const server = await collector();
    const world = telemetryWorld(server.url);
    writeJson(join(world.home, ".keel", "settings.json"), { permissions: { deny: ["Bash(rm:*)"] } });
    const hook = await runKeel(
      ["hook", "claude-code"],
      world,
      preToolUse(world, "timeout 5 rm -rf build", "toolu_rm"),
    );
    expect(hook.code).toBe(0);
    expect(hook.stdout).toContain('"permissionDecision":"deny"');
    expect(hook.stderr).toBe("");
    await eventually(() => server.logs.length === 1 && server.points.length === 1);
    expect(server.logs[0]?.attributes).toMatchObject({
      tool_name: "Bash",
      tool_use_id: "toolu_rm",
      "session.id": "claude-session-1",
      decision: "reject",
      source: "config",
      rule: "Bash(rm:*)",
      rule_source: "user",
      agent: "claude-code",
      surface: "hook",
      hook_event: "PreToolUse",
      permission_mode: "default",
    });
    expect(JSON.stringify(server.logs[0]?.attributes)).not.toContain("rm -rf");
    expect(server.points[0]?.attributes).toEqual({
      tool_name: "Bash",
      decision: "reject",
      source: "config",
      agent: "claude-code",
    });
    await eventually(() => spoolCount(spoolRoot(world.env)).events === 0);
    await eventually(() => !existsSync(lockFile(spoolRoot(world.env))));
  });

  it("keel hook with the collector down: the decision is given, the event waits, and arrives once it is up", async () => {
    const probe = await startHttpCollector();
    const port = probe.port;
    await probe.close();
    const world = telemetryWorld(`http://127.0.0.1:${port}`, { OTEL_EXPORTER_OTLP_TIMEOUT: "1000" });
    const hook = await runKeel(["hook", "claude-code"], world, preToolUse(world, "ls", "toolu_ls"));
    expect(hook.code).toBe(0);
    expect(hook.stdout).toContain('"permissionDecision":"allow"');
    expect(spoolCount(spoolRoot(world.env)).events).toBe(1);
    // The flusher keeps trying with backoff; the collector comes up on the same port.
    const server = await collector(port);
    await eventually(() => server.logs.length === 1, 20_000);
    expect(server.logs[0]?.attributes).toMatchObject({ tool_use_id: "toolu_ls", decision: "accept" });
    await eventually(() => spoolCount(spoolRoot(world.env)).events === 0);
  });

  it("keel tool: surface tool, agent keel", async () => {
    const server = await collector();
    const world = telemetryWorld(server.url);
    writeFileSync(join(world.project, "notes.txt"), "hello\n");
    const tool = await runKeel(
      ["tool", "Read", JSON.stringify({ file_path: join(world.project, "notes.txt") })],
      world,
    );
    expect(tool.code).toBe(0);
    await eventually(() => server.logs.length === 1);
    expect(server.logs[0]?.attributes).toMatchObject({
      tool_name: "Read",
      decision: "accept",
      agent: "keel",
      surface: "tool",
    });
  });

  it("keel mcp: a call from an MCP client", async () => {
    const server = await collector();
    const world = telemetryWorld(server.url);
    writeFileSync(join(world.project, "notes.txt"), "hello\n");
    const client = new Client({ name: "telemetry-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [ENTRY, "mcp", "--cwd", world.project],
        env: world.env as Record<string, string>,
        stderr: "ignore",
      }),
    );
    cleanups.push(() => client.close());
    const result = await client.callTool({
      name: "Read",
      arguments: { file_path: join(world.project, "notes.txt") },
    });
    expect(result.isError).not.toBe(true);
    await eventually(() => server.logs.length === 1);
    expect(server.logs[0]?.attributes).toMatchObject({
      tool_name: "Read",
      decision: "accept",
      surface: "mcp",
    });
  });

  it("the agent (keel -p): a refused call", async () => {
    const server = await collector();
    const world = telemetryWorld(server.url);
    const model = await startAnthropicServer({
      script: [
        {
          blocks: [
            { type: "tool_use", name: "Bash", input: { command: "touch notes.txt" }, id: "toolu_touch" },
          ],
        },
        { blocks: [{ type: "text", text: "done" }] },
      ],
    });
    cleanups.push(() => model.close());
    const run = await runKeel(
      ["-p", "go", "--provider", "anthropic", "--base-url", model.url, "--model", "claude-sonnet-4-5"],
      world,
    );
    expect(run.code).toBe(0);
    await eventually(() => server.logs.length === 1);
    expect(server.logs[0]?.attributes).toMatchObject({
      tool_name: "Bash",
      tool_use_id: "toolu_touch",
      decision: "reject",
      decided_by: "nobody to ask (non-interactive)",
      decision_reason_type: "noPrompter",
      surface: "agent",
      agent: "keel",
    });
  });
});

describe("managed settings over a project's", () => {
  it("managed settings turn it on and name the endpoint; the project's off and endpoint are ignored", async () => {
    const managedServer = await collector();
    const projectServer = await collector();
    const world = telemetryWorld(undefined);
    const managedFile = join(world.root, "managed-settings.json");
    writeJson(managedFile, {
      telemetry: { enabled: true },
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: managedServer.url },
    });
    world.env.KEEL_MANAGED_SETTINGS = managedFile;
    writeJson(join(world.project, ".keel", "settings.json"), {
      telemetry: { enabled: false, logToolDetails: true },
      env: {
        KEEL_ENABLE_TELEMETRY: "0",
        OTEL_EXPORTER_OTLP_ENDPOINT: projectServer.url,
        OTEL_LOG_TOOL_DETAILS: "1",
      },
    });
    // Trusted, so the project's env would apply if anything let it.
    writeJson(join(world.home, ".keel", "config.json"), {
      trustedFolders: { [world.project]: new Date().toISOString() },
    });
    const hook = await runKeel(["hook", "claude-code"], world, preToolUse(world, "ls", "toolu_managed"));
    expect(hook.code).toBe(0);
    // What the project tried is said, on the hook's one line of notes.
    expect(hook.stderr).toMatch(/cannot turn telemetry off/);
    expect(hook.stderr).toMatch(
      /ignored: OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_LOG_TOOL_DETAILS, telemetry.logToolDetails/,
    );
    await eventually(() => managedServer.logs.length === 1);
    expect(managedServer.logs[0]?.attributes).toMatchObject({ tool_use_id: "toolu_managed" });
    expect(managedServer.logs[0]?.attributes).not.toHaveProperty("tool_input");
    await eventually(() => spoolCount(spoolRoot(world.env)).events === 0);
    expect(projectServer.requests).toEqual([]);
  });

  it("a trusted project may turn it on, to the endpoint the user's environment names", async () => {
    const server = await collector();
    const world = telemetryWorld(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: server.url });
    writeJson(join(world.project, ".keel", "settings.json"), { telemetry: { enabled: true } });
    const untrusted = await runKeel(
      ["hook", "claude-code"],
      world,
      preToolUse(world, "ls", "toolu_untrusted"),
    );
    expect(untrusted.code).toBe(0);
    expect(existsSync(spoolRoot(world.env))).toBe(false);
    writeJson(join(world.home, ".keel", "config.json"), {
      trustedFolders: { [world.project]: new Date().toISOString() },
    });
    await runKeel(["hook", "claude-code"], world, preToolUse(world, "ls", "toolu_trusted"));
    await eventually(() => server.logs.length === 1);
    expect(server.logs[0]?.attributes.tool_use_id).toBe("toolu_trusted");
    expect(readFileSync(join(world.home, ".keel", "config.json"), "utf8")).toContain(world.project);
  });
});
