// An MCP server's tool known only by its name: the server is not started, so nothing is known of its
// schema or annotations. Rules decide (`mcp__server`, `mcp__server__tool`); otherwise it asks, and it
// counts as neither read-only nor safe to run beside others.
import * as z from "zod";
import type { PermissionResult } from "../permissions/types.ts";
import { buildTool, type Tool } from "../tool/Tool.ts";

const anyArguments = z.looseObject({});

export function mcpToolByName(name: string, serverName: string, toolName: string): Tool {
  return buildTool<Record<string, unknown>>({
    name,
    inputSchema: anyArguments,
    maxResultSizeChars: 100_000,
    isMcp: true,
    mcpInfo: { serverName, toolName },
    description: () => `Tool ${toolName} of MCP server ${serverName}`,
    prompt: () => `Tool ${toolName} of MCP server ${serverName}`,
    async checkPermissions(input): Promise<PermissionResult<Record<string, unknown>>> {
      return {
        behavior: "passthrough",
        updatedInput: input,
        message: `${name} (a tool of MCP server "${serverName}") needs approval`,
      };
    },
    async call() {
      throw new Error("an MCP tool known only by name cannot run; Keel only judges it");
    },
  }) as Tool;
}
