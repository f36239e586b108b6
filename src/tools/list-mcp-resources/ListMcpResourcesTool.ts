// ListMcpResources: the resources connected MCP servers offer, one server or all of them.
import { readFileSync } from "node:fs";
import * as z from "zod";
import { errorMessage } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { allowedByTool, buildTool } from "../../tool/Tool.ts";
import { findResourceSource, type McpResourceInfo, resourceSources } from "./resourceSource.ts";

const inputSchema = z.strictObject({
  server: z.string().min(1).optional().describe("Only this MCP server's resources (default: every server)"),
});

export type ListMcpResourcesInput = z.infer<typeof inputSchema>;

export interface ListMcpResourcesOutput {
  resources: Array<McpResourceInfo & { server: string }>;
  /** Servers whose listing failed, with why; the others are still listed. */
  failures: Array<{ server: string; error: string }>;
}

let prompt: string | undefined;

function resultText(output: ListMcpResourcesOutput): string {
  const lines = output.resources.map((resource) => {
    const extra = [resource.mimeType, resource.description].filter(Boolean).join(" — ");
    return `${resource.server}: ${resource.uri} (${resource.title ?? resource.name})${extra ? ` ${extra}` : ""}`;
  });
  if (lines.length === 0) lines.push("No resources found.");
  for (const failure of output.failures) lines.push(`(could not list ${failure.server}: ${failure.error})`);
  return lines.join("\n");
}

export const ListMcpResourcesTool = buildTool<ListMcpResourcesInput, ListMcpResourcesOutput>({
  name: "ListMcpResources",
  searchHint: "list resources of MCP servers",
  inputSchema,
  maxResultSizeChars: 50_000,
  prompt: () => {
    prompt ??= readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();
    return prompt;
  },
  description: (input) =>
    input.server ? `List resources of MCP server ${input.server}` : "List MCP resources",
  isReadOnly: true,
  isConcurrencySafe: true,
  interruptBehavior: () => "cancel",
  // Listing names what servers the user configured offer; it reads no contents.
  checkPermissions: allowedByTool("lists resources of configured MCP servers (read-only)"),
  async call(input, context) {
    const signal = context.abortController.signal;
    const sources = input.server ? [findResourceSource(context, input.server)] : resourceSources(context);
    const output: ListMcpResourcesOutput = { resources: [], failures: [] };
    const listed = await Promise.all(
      sources.map(async (source) => {
        try {
          return { source, resources: await source.listResources(signal) };
        } catch (error) {
          return { source, error: errorMessage(error) };
        }
      }),
    );
    for (const entry of listed) {
      if ("error" in entry) output.failures.push({ server: entry.source.name, error: entry.error ?? "" });
      else
        for (const resource of entry.resources)
          output.resources.push({ ...resource, server: entry.source.name });
    }
    return { data: output };
  },
  mapToolResultToToolResultBlockParam: (output, toolUseId): ToolResultBlock => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: resultText(output),
  }),
  renderToolResult: (output) => ({
    kind: "list",
    title: "MCP resources",
    items: output.resources.map((resource) => `${resource.server}: ${resource.uri}`),
  }),
});
