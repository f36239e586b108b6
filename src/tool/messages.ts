// Content blocks exchanged with models, in the Anthropic Messages shape. Providers convert at their edge.

export interface TextBlock {
  type: "text";
  text: string;
}

/** The image types models take as image blocks (Anthropic and OpenAI both accept these four). */
export const IMAGE_MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

export function isImageMediaType(type: string | undefined): type is ImageMediaType {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(type ?? "");
}

export interface ImageBlock {
  type: "image";
  source: {
    type: "base64";
    media_type: ImageMediaType;
    data: string;
  };
}

export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  /** Parsed arguments, or the raw JSON text as the model sent it (the pipeline parses it). */
  input: unknown;
}

export type ToolResultContent = string | Array<TextBlock | ImageBlock>;

export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: ToolResultContent;
  is_error?: boolean;
}

export interface ThinkingBlock {
  type: "thinking";
  thinking: string;
  signature?: string;
}

/** Thinking the provider encrypted; kept and sent back as is, or multi-turn tool use breaks. */
export interface RedactedThinkingBlock {
  type: "redacted_thinking";
  data: string;
}

export type ContentBlock =
  | TextBlock
  | ImageBlock
  | ToolUseBlock
  | ToolResultBlock
  | ThinkingBlock
  | RedactedThinkingBlock;

export interface Message {
  role: "user" | "assistant";
  content: string | ContentBlock[];
}

/** Total characters of text in a tool result (images count as zero: they are never persisted). */
export function resultTextLength(content: ToolResultContent): number {
  if (typeof content === "string") return content.length;
  let total = 0;
  for (const block of content) if (block.type === "text") total += block.text.length;
  return total;
}

export function resultText(content: ToolResultContent): string {
  if (typeof content === "string") return content;
  return content
    .filter((block): block is TextBlock => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}
