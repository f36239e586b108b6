// What the MCP resource tools need from a connected server. The MCP client layer puts objects of this
// shape in `context.options.mcpClients`; tools see only this interface, never the client layer.
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";

export interface McpResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export interface McpResourceSource {
  readonly name: string;
  readonly supportsResources: boolean;
  listResources(signal: AbortSignal): Promise<McpResourceInfo[]>;
  readResource(uri: string, signal: AbortSignal): Promise<{ contents: McpResourceContents[] }>;
}

function isResourceSource(value: unknown): value is McpResourceSource {
  const candidate = value as Partial<McpResourceSource> | null;
  return (
    typeof candidate?.name === "string" &&
    typeof candidate.listResources === "function" &&
    typeof candidate.readResource === "function"
  );
}

/** The session's MCP servers that serve resources. */
export function resourceSources(context: ToolUseContext): McpResourceSource[] {
  return (context.options.mcpClients ?? [])
    .filter(isResourceSource)
    .filter((source) => source.supportsResources);
}

/** One server by name, or an error naming the servers there are. */
export function findResourceSource(context: ToolUseContext, server: string): McpResourceSource {
  const sources = resourceSources(context);
  const found = sources.find((source) => source.name === server);
  if (found) return found;
  const names = sources.map((source) => `"${source.name}"`).join(", ");
  throw new ToolError(
    "not_found",
    `No connected MCP server "${server}" with resources. ${names ? `Servers with resources: ${names}.` : "No connected server offers resources."}`,
  );
}
