// An MCP tool result as the model sees it: text and images as they are, structured content as JSON when
// there is no text copy, resource links and embedded resources described, anything else named, not dropped.
import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import { type ImageBlock, isImageMediaType, type TextBlock, type ToolResultBlock } from "../tool/messages.ts";

export interface McpToolOutput {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
}

function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4);
}

function imageBlock(data: string, mimeType: string): ImageBlock | TextBlock {
  if (!isImageMediaType(mimeType))
    return { type: "text", text: `[image of type ${mimeType} (${base64Bytes(data)} bytes) not shown]` };
  return { type: "image", source: { type: "base64", media_type: mimeType, data } };
}

function describeLink(link: {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}) {
  const parts = [`[Resource link: ${link.title ?? link.name} <${link.uri}>`];
  if (link.mimeType) parts.push(` (${link.mimeType})`);
  if (link.description) parts.push(` — ${link.description}`);
  return `${parts.join("")}]`;
}

export function contentBlockToKeel(block: ContentBlock): TextBlock | ImageBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return imageBlock(block.data, block.mimeType);
    case "audio":
      return {
        type: "text",
        text: `[audio of type ${block.mimeType} (${base64Bytes(block.data)} bytes) not shown]`,
      };
    case "resource_link":
      return { type: "text", text: describeLink(block) };
    case "resource": {
      const resource = block.resource;
      if ("text" in resource && typeof resource.text === "string")
        return { type: "text", text: `[Resource ${resource.uri}]\n${resource.text}` };
      const blob = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
      const mimeType = resource.mimeType ?? "application/octet-stream";
      if (isImageMediaType(mimeType)) return imageBlock(blob, mimeType);
      return {
        type: "text",
        text: `[Binary resource ${resource.uri} (${mimeType}, ${base64Bytes(blob)} bytes) not shown]`,
      };
    }
    default:
      return { type: "text", text: `[content of type ${(block as { type: string }).type} not shown]` };
  }
}

/** Text blocks joined into one string when there are no images, so budgets and previews see plain text. */
export function mcpOutputToContent(output: McpToolOutput): ToolResultBlock["content"] {
  const blocks = output.content.map(contentBlockToKeel);
  if (blocks.length === 0 && output.structuredContent)
    return JSON.stringify(output.structuredContent, null, 2);
  if (blocks.every((block) => block.type === "text"))
    return blocks.map((block) => (block as TextBlock).text).join("\n");
  return blocks;
}

export function mapMcpToolResult(output: McpToolOutput, toolUseId: string): ToolResultBlock {
  return { type: "tool_result", tool_use_id: toolUseId, content: mcpOutputToContent(output) };
}

/** The text of an error result, for the message the model gets. */
export function mcpErrorText(content: readonly ContentBlock[]): string {
  const text = content
    .map((block) => contentBlockToKeel(block))
    .filter((block): block is TextBlock => block.type === "text")
    .map((block) => block.text)
    .join("\n")
    .trim();
  return text || "(the server gave no details)";
}
