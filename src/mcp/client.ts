// MCP servers -> Keel tools. Every configured server is connected in parallel and on its own: one that
// crashes, hangs at startup or writes garbage is reported in `status()` and the others are used as usual.
import type { ToolUseContext } from "../tool/context.ts";
import type { Tool } from "../tool/Tool.ts";
import { ListMcpResourcesTool } from "../tools/list-mcp-resources/ListMcpResourcesTool.ts";
import { ReadMcpResourceTool } from "../tools/read-mcp-resource/ReadMcpResourceTool.ts";
import type { McpServerSpec } from "./config.ts";
import { type ConnectionOptions, McpConnection, type McpServerState } from "./connection.ts";
import { buildMcpTool } from "./mcpTool.ts";

export interface McpServerStatus {
  name: string;
  origin: string;
  transport: "stdio" | "http" | "sse" | "unknown";
  /** The command line or URL, for people. */
  target: string;
  state: McpServerState;
  error?: string;
  serverInfo?: { name: string; version: string };
  tools: Array<{
    name: string;
    mcpName: string;
    readOnly: boolean;
    destructive: boolean;
    description: string;
  }>;
}

function targetOf(spec: McpServerSpec): string {
  const config = spec.config;
  if (!config) return "";
  return config.type === "stdio" ? [config.command, ...config.args].join(" ") : config.url;
}

export class McpClientManager {
  readonly connections: readonly McpConnection[];
  /** Problems building tools (duplicate names after normalization), for people. */
  readonly warnings: string[] = [];
  #tools: Tool[] | undefined;

  constructor(specs: readonly McpServerSpec[], options: ConnectionOptions = {}) {
    this.connections = specs.map((spec) => new McpConnection(spec, options));
  }

  /** Connects every server at once; resolves when each has connected or failed. */
  async connectAll(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.connect()));
    this.#tools = undefined;
  }

  /** The servers' tools as Keel tools, plus the resource tools when a server offers resources. */
  tools(): Tool[] {
    if (this.#tools) return this.#tools;
    const tools: Tool[] = [];
    const names = new Set<string>();
    for (const connection of this.connections) {
      if (connection.state !== "connected") continue;
      for (const def of connection.tools) {
        let tool: Tool;
        try {
          tool = buildMcpTool(connection, def) as unknown as Tool;
        } catch (error) {
          this.warnings.push(
            `MCP server "${connection.name}": tool "${def.name}" skipped: ${(error as Error).message}`,
          );
          continue;
        }
        if (names.has(tool.name)) {
          this.warnings.push(
            `MCP server "${connection.name}": tool "${def.name}" skipped: another tool is already named ${tool.name}`,
          );
          continue;
        }
        names.add(tool.name);
        tools.push(tool);
      }
    }
    if (this.connections.some((connection) => connection.supportsResources))
      tools.push(ListMcpResourcesTool as unknown as Tool, ReadMcpResourceTool as unknown as Tool);
    this.#tools = tools;
    return tools;
  }

  status(): McpServerStatus[] {
    return this.connections.map((connection) => ({
      name: connection.name,
      origin: connection.spec.origin,
      transport: connection.config?.type ?? "unknown",
      target: targetOf(connection.spec),
      state: connection.state,
      ...(connection.error ? { error: connection.error } : {}),
      ...(connection.serverInfo ? { serverInfo: connection.serverInfo } : {}),
      tools:
        connection.state === "connected"
          ? connection.tools.map((def) => {
              const tool = this.tools().find(
                (t) => t.mcpInfo?.toolName === def.name && t.mcpInfo.serverName === connection.ruleName,
              );
              return {
                name: tool?.name ?? def.name,
                mcpName: def.name,
                readOnly: def.annotations?.readOnlyHint === true,
                destructive: tool ? tool.isDestructive({}) : true,
                description: (def.description ?? "").split("\n")[0]!.slice(0, 120),
              };
            })
          : [],
    }));
  }

  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
  }
}

/** Connects the given servers; never throws for a server's failure (see `status()`). */
export async function connectMcpServers(
  specs: readonly McpServerSpec[],
  options: ConnectionOptions = {},
): Promise<McpClientManager> {
  const manager = new McpClientManager(specs, options);
  await manager.connectAll();
  return manager;
}

/** A context whose calls can reach the manager's servers (the resource tools look there). */
export function withMcpClients(context: ToolUseContext, manager: McpClientManager): ToolUseContext {
  return { ...context, options: { ...context.options, mcpClients: manager.connections } };
}
