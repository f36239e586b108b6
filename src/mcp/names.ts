// Names of MCP tools inside Keel: `mcp__<server>__<tool>`, each part reduced to the characters tool
// names may use, so permission rules (`mcp__server`, `mcp__server__tool`) can name them.
import { createSha256 } from "../tool/lazyCrypto.ts";

const MAX_TOOL_NAME = 128;

/** Letters, digits, `_` and `-` only; anything else becomes `_`. */
export function normalizeNamePart(name: string): string {
  const normalized = name.replace(/[^A-Za-z0-9_-]/g, "_");
  return normalized === "" ? "_" : normalized;
}

/** `mcp__<server>__<tool>`; over 128 characters, cut and suffixed with a short hash so names stay unique. */
export function mcpToolName(serverName: string, toolName: string): string {
  const full = `mcp__${normalizeNamePart(serverName)}__${normalizeNamePart(toolName)}`;
  if (full.length <= MAX_TOOL_NAME) return full;
  const hash = createSha256().update(full).digest("hex").slice(0, 8);
  return `${full.slice(0, MAX_TOOL_NAME - 9)}_${hash}`;
}

/** The server and tool parts of an `mcp__server__tool` name, or undefined for other names. */
export function parseMcpToolName(name: string): { server: string; tool?: string } | undefined {
  if (!name.startsWith("mcp__")) return undefined;
  const rest = name.slice(5);
  const split = rest.indexOf("__");
  if (split === -1) return rest ? { server: rest } : undefined;
  return { server: rest.slice(0, split), tool: rest.slice(split + 2) };
}
