// ReadMcpResource: one resource of a connected MCP server. Text as text, images as images, other binary
// contents saved under the session's tool-results folder with the path given to the model.

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod";
import type { ImageBlock, TextBlock, ToolResultBlock } from "../../tool/messages.ts";
import { isImageMediaType } from "../../tool/messages.ts";
import { prepareResultsFolder, RESULT_FILE_MODE } from "../../tool/resultsFolder.ts";
import { allowedByTool, buildTool } from "../../tool/Tool.ts";
import { findResourceSource, type McpResourceContents } from "../list-mcp-resources/resourceSource.ts";

const inputSchema = z.strictObject({
  server: z.string().min(1).describe("The MCP server's name"),
  uri: z.string().min(1).describe("The resource's URI"),
});

export type ReadMcpResourceInput = z.infer<typeof inputSchema>;

export interface ReadMcpResourceOutput {
  server: string;
  contents: Array<
    | { uri: string; mimeType?: string; kind: "text"; text: string }
    | { uri: string; mimeType: string; kind: "image"; data: string }
    | { uri: string; mimeType?: string; kind: "file"; path: string; bytes: number }
  >;
}

let prompt: string | undefined;

async function keepBinary(
  item: McpResourceContents,
  dir: string,
): Promise<ReadMcpResourceOutput["contents"][number]> {
  const bytes = Buffer.from(item.blob ?? "", "base64");
  if (isImageMediaType(item.mimeType))
    return { uri: item.uri, mimeType: item.mimeType, kind: "image", data: item.blob ?? "" };
  prepareResultsFolder(dir);
  const path = join(
    dir,
    `mcp-resource-${createHash("sha256").update(item.uri).digest("hex").slice(0, 16)}.bin`,
  );
  await writeFile(path, bytes, { mode: RESULT_FILE_MODE });
  return {
    uri: item.uri,
    ...(item.mimeType ? { mimeType: item.mimeType } : {}),
    kind: "file",
    path,
    bytes: bytes.length,
  };
}

function toBlocks(output: ReadMcpResourceOutput): Array<TextBlock | ImageBlock> {
  return output.contents.map((item): TextBlock | ImageBlock => {
    if (item.kind === "text") return { type: "text", text: item.text };
    if (item.kind === "image")
      return {
        type: "image",
        source: {
          type: "base64",
          media_type: item.mimeType as ImageBlock["source"]["media_type"],
          data: item.data,
        },
      };
    return {
      type: "text",
      text: `[Binary resource ${item.uri} (${item.mimeType ?? "unknown type"}, ${item.bytes} bytes) saved to ${item.path}]`,
    };
  });
}

export const ReadMcpResourceTool = buildTool<ReadMcpResourceInput, ReadMcpResourceOutput>({
  name: "ReadMcpResource",
  searchHint: "read a resource of an MCP server",
  inputSchema,
  maxResultSizeChars: 100_000,
  prompt: () => {
    prompt ??= readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();
    return prompt;
  },
  description: (input) => `Read ${input.uri} from MCP server ${input.server}`,
  isReadOnly: true,
  isConcurrencySafe: true,
  interruptBehavior: () => "cancel",
  // Resources are what a configured server chose to publish for reading; reading changes nothing.
  checkPermissions: allowedByTool("reads a resource a configured MCP server publishes (read-only)"),
  async call(input, context) {
    const source = findResourceSource(context, input.server);
    const read = await source.readResource(input.uri, context.abortController.signal);
    const contents: ReadMcpResourceOutput["contents"] = [];
    for (const item of read.contents) {
      if (typeof item.text === "string")
        contents.push({
          uri: item.uri,
          ...(item.mimeType ? { mimeType: item.mimeType } : {}),
          kind: "text",
          text: item.text,
        });
      else contents.push(await keepBinary(item, context.options.toolResultsDir));
    }
    return { data: { server: input.server, contents } };
  },
  mapToolResultToToolResultBlockParam: (output, toolUseId): ToolResultBlock => {
    const blocks = toBlocks(output);
    const content = blocks.every((block) => block.type === "text")
      ? blocks.map((block) => (block as TextBlock).text).join("\n")
      : blocks;
    return { type: "tool_result", tool_use_id: toolUseId, content };
  },
});
