// `keel mcp list`: the MCP servers Keel would use, their state and their tools. Each failure is said once,
// in plain words; the exit status is 1 when a configured server could not be used.
import type { McpServerStatus } from "../../mcp/client.ts";
import { loadAllBuiltinTools } from "../../tools/catalog.ts";
import { processIO } from "../io.ts";
import { connectConfiguredMcp, loadCliSettings, type PolicyFlags } from "../session.ts";
import { log } from "./mcpServe.ts";

export interface ListFlags extends PolicyFlags {
  mcpConfig?: string[];
  strictMcpConfig?: boolean;
  json?: boolean;
}

/** A server that was meant to be used and could not be (disabled ones were not meant to). */
function failed(server: McpServerStatus): boolean {
  return server.state === "failed" || server.state === "disconnected";
}

function describeServer(server: McpServerStatus): string {
  const state = server.state === "connected" ? `connected, ${server.tools.length} tools` : server.state;
  const lines = [
    `${server.name}  ${server.transport}  ${server.target}  [${state}]`,
    `  from ${server.origin}`,
  ];
  if (server.error) lines.push(`  error: ${server.error}`);
  for (const tool of server.tools) {
    const flagsText = tool.readOnly ? " (read-only)" : tool.destructive ? " (may change or delete)" : "";
    lines.push(`  ${tool.name}${flagsText}${tool.description ? ` - ${tool.description}` : ""}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Prints the servers; resolves true when a configured server could not be used (exit status 1). */
export async function list(flags: ListFlags): Promise<boolean> {
  const settings = loadCliSettings(flags, processIO(), await loadAllBuiltinTools());
  const { connectMcpServers } = await import("../../mcp/client.ts");
  // With none configured, an empty manager still reports (and --json still prints) the empty list.
  const manager = (await connectConfiguredMcp(settings, flags)) ?? (await connectMcpServers([]));
  try {
    const status = manager.status();
    const warnings = [...settings.warnings, ...manager.warnings];
    const broken = status.filter(failed);
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ servers: status, warnings }, null, 2)}\n`);
      return broken.length > 0;
    }
    for (const warning of warnings) log(warning);
    if (status.length === 0) {
      process.stdout.write(
        "No MCP servers configured (settings mcpServers, .mcp.json in a trusted folder, or --mcp-config).\n",
      );
      return false;
    }
    for (const server of status) process.stdout.write(describeServer(server));
    if (broken.length > 0)
      log(
        `${broken.length} of ${status.length} server${status.length > 1 ? "s" : ""} could not be used: ${broken.map((s) => s.name).join(", ")}`,
      );
    return broken.length > 0;
  } finally {
    await manager.close();
  }
}
