// `keel mcp list` through the CLI entry: servers from --mcp-config and from a trusted project's .mcp.json,
// their states and tools, as text and as JSON; an untrusted project's .mcp.json is not started.
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

  const list = async (...args: string[]) =>
    run(process.execPath, [KEEL_ENTRY, "list", "--cwd", world.project, "--mcp-config", config, ...args], {
      env: world.env,
    });

  it("shows each server's state and tools as JSON; an untrusted .mcp.json is not used", async () => {
    const { stdout } = await list("--json");
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
    const { stdout } = await list("--trust");
    expect(stdout).toMatch(/fromProject .*\[connected, 5 tools\]/);
    expect(stdout).toMatch(/from project \.mcp\.json/);
    expect(stdout).toMatch(/mcp__scripted__greet \(read-only\)/);
    expect(stdout).toMatch(/broken .*\[failed\]\n.*\n {2}error: .*could not open the database/);
  });
});
