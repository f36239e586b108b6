// /status and /mcp of the terminal UI: what this session runs with (version, model and provider, mode,
// folders, the settings files in force, MCP servers), and each MCP server's state and tools, as a Claude
// Code user expects from the commands of the same names.
import type { McpConnection } from "../../mcp/connection.ts";
import { MODE_DESCRIPTIONS } from "../../permissions/modes.ts";
import { workingDirectories } from "../../tool/context.ts";
import type { Tool } from "../../tool/Tool.ts";
import { keelVersion } from "../../version.ts";
import type { Agent } from "../Agent.ts";
import type { ModelConfig } from "../config.ts";

/** What /status reports beyond the agent itself: how the session was set up. */
export interface SessionFacts {
  config: Pick<ModelConfig, "provider" | "baseURL">;
  /** The settings files in force, highest precedence first: `source: path`. */
  settingsFiles: readonly string[];
  trusted: boolean;
}

const PROVIDER_TITLES = { anthropic: "Anthropic Messages API", openai: "OpenAI-compatible API" } as const;

function connectionsOf(agent: Agent): McpConnection[] {
  return (agent.context.options.mcpClients ?? []) as McpConnection[];
}

function stateOf(connection: McpConnection, tools: readonly Tool[]): string {
  if (connection.state !== "connected")
    return `${connection.state}${connection.error ? `: ${connection.error}` : ""}`;
  const count = tools.filter((tool) => tool.mcpInfo?.serverName === connection.ruleName).length;
  return `connected, ${count} tool${count === 1 ? "" : "s"}`;
}

export function statusText(agent: Agent, facts: SessionFacts): string {
  const state = agent.context.getAppState();
  const policy = state.toolPermissionContext;
  const [, ...added] = workingDirectories(policy);
  const connections = connectionsOf(agent);
  const tools = agent.pool.all;
  const endpoint = facts.config.baseURL ? ` at ${facts.config.baseURL}` : "";
  return [
    `Keel ${keelVersion()}`,
    `Session: ${agent.sessionId}`,
    `Model: ${agent.model} (${PROVIDER_TITLES[facts.config.provider]}${endpoint})`,
    `Permission mode: ${policy.mode} (${MODE_DESCRIPTIONS[policy.mode]})`,
    `Working folder: ${state.cwd}`,
    `Project: ${policy.projectRoot} (${facts.trusted ? "trusted: its own settings apply" : "not trusted: its allow rules, hooks and MCP servers are held back"})`,
    ...(added.length > 0 ? [`Also allowed: ${added.join(", ")}`] : []),
    "Settings files (highest precedence first):",
    ...(facts.settingsFiles.length > 0 ? facts.settingsFiles.map((file) => `  ${file}`) : ["  none"]),
    connections.length > 0
      ? `MCP servers: ${connections.map((connection) => `${connection.name} (${stateOf(connection, tools)})`).join(", ")}`
      : "MCP servers: none",
  ].join("\n");
}

export function mcpText(agent: Agent): string {
  const connections = connectionsOf(agent);
  if (connections.length === 0)
    return "No MCP servers in this session (settings mcpServers, .mcp.json in a trusted folder, or --mcp-config). `keel mcp list` checks them outside a session.";
  const tools = agent.pool.all;
  const lines: string[] = [];
  for (const connection of connections) {
    const config = connection.config;
    const target = config
      ? config.type === "stdio"
        ? [config.command, ...config.args].join(" ")
        : config.url
      : "";
    lines.push(
      `${connection.name}  ${config?.type ?? "unknown"}  ${target}  [${stateOf(connection, tools)}]`,
    );
    lines.push(`  from ${connection.spec.origin}`);
    if (/\bauth|login|401/i.test(connection.error ?? ""))
      lines.push(`  log in with: keel mcp login ${connection.name}`);
    for (const tool of tools.filter((candidate) => candidate.mcpInfo?.serverName === connection.ruleName))
      lines.push(`  ${tool.name}`);
  }
  return lines.join("\n");
}
