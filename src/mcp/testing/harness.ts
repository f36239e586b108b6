// Test harness: spawns `keel mcp` (the real CLI entry, or the same command with the test tools) and
// connects the official SDK client to it, over stdio or HTTP.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { tempFolderForTest } from "../../tool/testing/tempFolder.ts";

export const REPO = new URL("../../../", import.meta.url).pathname;
export const KEEL_ENTRY = join(REPO, "src/cli/mcpEntry.ts");
export const TEST_ENTRY = join(REPO, "src/mcp/testing/keelMcpWithTestTools.ts");

/** A project folder and a home folder of its own, so no real settings leak in. */
export function makeWorld(): { project: string; home: string; env: Record<string, string> } {
  const base = tempFolderForTest("keel-mcp-");
  const project = join(base, "project");
  const home = join(base, "home");
  mkdirSync(project);
  mkdirSync(home);
  writeFileSync(join(project, "hello.txt"), "hello from the project\n");
  return {
    project,
    home,
    env: {
      ...(process.env as Record<string, string>),
      KEEL_HOME: home,
      KEEL_MANAGED_SETTINGS: join(base, "no-managed-settings.json"),
    },
  };
}

export interface StdioSession {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  close: () => Promise<void>;
}

export async function connectStdio(options: {
  entry?: string;
  args?: string[];
  env: Record<string, string>;
  capabilities?: ClientCapabilities;
  setup?: (client: Client) => void;
}): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [options.entry ?? TEST_ENTRY, ...(options.args ?? [])],
    env: options.env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client(
    { name: "keel-test", version: "1.0.0" },
    { capabilities: options.capabilities ?? {} },
  );
  options.setup?.(client);
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, close: () => client.close() };
}

/** Whether a process is still alive (signal 0 only checks). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The process group of the process running exactly this argv (Linux /proc), or 0. */
export function processGroupOf(argv: readonly string[]): number {
  const wanted = `${argv.join("\0")}\0`;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8") !== wanted) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
    } catch {
      // gone meanwhile
    }
  }
  return 0;
}

/** Waits until `check` holds, polling; fails after `ms` with `what`. */
export async function waitFor(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
