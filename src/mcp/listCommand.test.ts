// `keel mcp list` through the CLI entry: servers from --mcp-config and from a trusted project's .mcp.json,
// their states and tools, as text and as JSON; an untrusted project's .mcp.json is not started; a failed
// server is reported once, in plain words, and the exit status is 1.
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { KEEL_ENTRY, makeWorld, REPO } from "./testing/harness.ts";

const run = promisify(execFile);
const SCRIPTED = join(REPO, "src/mcp/testing/servers/scripted.mjs");
const CRASH = join(REPO, "src/mcp/testing/servers/crash.mjs");

interface ListedServer {
  name: string;
  state: string;
  origin: string;
  error?: string;
  tools: { name: string; readOnly: boolean }[];
}

describe("keel mcp list", () => {
  const world = makeWorld();
  const config = join(world.project, "servers.json");
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        scripted: { command: process.execPath, args: [SCRIPTED] },
        broken: { command: process.execPath, args: [CRASH] },
      },
    }),
  );
  writeFileSync(
    join(world.project, ".mcp.json"),
    JSON.stringify({ mcpServers: { fromProject: { command: process.execPath, args: [SCRIPTED] } } }),
  );

  /** `keel mcp list`; it exits 1 here (the broken server), so the output comes with the exit code. */
  const list = async (...args: string[]) => {
    try {
      await run(
        process.execPath,
        [KEEL_ENTRY, "list", "--cwd", world.project, "--mcp-config", config, ...args],
        {
          env: world.env,
        },
      );
      throw new Error("keel mcp list exited 0 with a broken server");
    } catch (error) {
      return error as { code: number; stdout: string; stderr: string };
    }
  };

  it("shows each server's state and tools as JSON; an untrusted .mcp.json is not used", async () => {
    const { stdout, code } = await list("--json");
    expect(code).toBe(1);
    const servers = (JSON.parse(stdout) as { servers: ListedServer[] }).servers;
    expect(servers.map((server) => [server.name, server.state])).toEqual([
      ["scripted", "connected"],
      ["broken", "failed"],
    ]);
    expect(servers[0]!.tools).toEqual(
      expect.arrayContaining([
        {
          name: "mcp__scripted__greet",
          mcpName: "greet",
          readOnly: true,
          destructive: false,
          description: "Greets a person.",
        },
      ]),
    );
    expect(servers[1]!.error).toMatch(/could not open the database/);
  });

  it("starts a trusted project's .mcp.json servers, and prints text", async () => {
    const { stdout, stderr, code } = await list("--trust");
    expect(code).toBe(1);
    // Each failure once: in the server's own entry, and the summary names it without repeating it.
    expect(stdout.match(/could not open the database/g)).toHaveLength(1);
    expect(stderr).toMatch(/1 of 3 servers could not be used: broken/);
    expect(stdout).toMatch(/fromProject .*\[connected, 5 tools\]/);
    expect(stdout).toMatch(/from project \.mcp\.json/);
    expect(stdout).toMatch(/mcp__scripted__greet \(read-only\)/);
    expect(stdout).toMatch(/broken .*\[failed\]\n.*\n {2}error: .*could not open the database/);
  });

  it("says why a remote server could not be reached, once and in plain words", async () => {
    const unreachable = join(world.project, "unreachable.json");
    writeFileSync(
      unreachable,
      JSON.stringify({ mcpServers: { down: { type: "http", url: "http://127.0.0.1:1/mcp" } } }),
    );
    const failed = await run(
      process.execPath,
      [KEEL_ENTRY, "list", "--cwd", world.project, "--mcp-config", unreachable, "--strict-mcp-config"],
      { env: world.env },
    ).catch((error: { code: number; stdout: string }) => error);
    expect((failed as { code: number }).code).toBe(1);
    const stdout = (failed as { stdout: string }).stdout;
    expect(stdout).toMatch(/error: could not connect to http:\/\/127\.0\.0\.1:1\/mcp: /);
    expect(stdout).not.toMatch(/fetch failed|also sent bad data| is failed/);
  });
});
