// Turning a tool's output into the tool_result a model sees: mapping, the empty marker, and the budget
// (over it, the full output goes to disk and the model gets a notice with the path and a preview).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage } from "../tool/errors.ts";
import { groupThousands } from "../tool/format.ts";
import {
  resultText,
  resultTextLength,
  type ToolResultBlock,
  type ToolResultContent,
} from "../tool/messages.ts";
import { prepareResultsFolder, RESULT_FILE_MODE } from "../tool/resultsFolder.ts";
import type { Tool } from "../tool/Tool.ts";

/** The most any tool's result may take in the conversation before it is persisted. */
export const MAX_RESULT_CHARS = 50_000;
export const PREVIEW_BYTES = 2_000;

/** min(maxResultSizeChars, 50,000); a tool declaring Infinity (Read) is never persisted. */
export function resultBudget(tool: Pick<Tool, "maxResultSizeChars">): number {
  if (tool.maxResultSizeChars === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  return Math.min(tool.maxResultSizeChars, MAX_RESULT_CHARS);
}

export function isEmptyContent(content: ToolResultContent): boolean {
  // A test for any non-space character, not trim(): trim copies the whole result.
  if (typeof content === "string") return !/\S/.test(content);
  return content.length === 0 || content.every((block) => block.type === "text" && !/\S/.test(block.text));
}

export function errorResult(toolUseId: string, message: string): ToolResultBlock {
  return { type: "tool_result", tool_use_id: toolUseId, content: message, is_error: true };
}

/** The first `bytes` bytes of UTF-8 text, cut back to a whole character and, when close, a whole line. */
export function previewOf(text: string, bytes = PREVIEW_BYTES): { preview: string; truncated: boolean } {
  const encoded = Buffer.from(text, "utf8");
  if (encoded.length <= bytes) return { preview: text, truncated: false };
  let end = bytes;
  while (end > 0 && (encoded[end]! & 0xc0) === 0x80) end--;
  let preview = encoded.subarray(0, end).toString("utf8");
  const lastNewline = preview.lastIndexOf("\n");
  if (lastNewline > preview.length / 2) preview = preview.slice(0, lastNewline);
  return { preview, truncated: true };
}

function safeFileName(toolUseId: string): string {
  return toolUseId.replace(/[^A-Za-z0-9_.-]/g, "_") || "result";
}

/** Saves the full output in the session's private results folder (0600 in 0700); its path. */
async function saveResultText(toolResultsDir: string, name: string, text: string): Promise<string> {
  const path = join(toolResultsDir, name);
  for (let attempt = 0; ; attempt++) {
    try {
      prepareResultsFolder(toolResultsDir, { again: attempt > 0 });
      await writeFile(path, text, { encoding: "utf8", mode: RESULT_FILE_MODE });
      return path;
    } catch (error) {
      // The folder was removed meanwhile (a temp cleaner): made again, once.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || attempt > 0) throw error;
    }
  }
}

/** Writes the full output and returns the notice the model gets instead (or, if it cannot be saved, a preview saying so). */
export async function persistLargeResult(
  block: ToolResultBlock,
  toolResultsDir: string,
): Promise<{ block: ToolResultBlock; path?: string }> {
  const text = resultText(block.content);
  const { preview } = previewOf(text);
  const size = `Output too large (${groupThousands(text.length)} characters).`;
  const shown = `Preview (first ${groupThousands(PREVIEW_BYTES)} bytes):\n${preview}\n...`;
  let path: string;
  try {
    path = await saveResultText(toolResultsDir, `${safeFileName(block.tool_use_id)}.txt`, text);
  } catch (error) {
    const notice = `${size} The full output could not be saved (${errorMessage(error)}); only this preview is left.\n\n${shown}`;
    return { block: { ...block, content: notice } };
  }
  const notice =
    `<persisted-output>\n${size} ` +
    `Full output saved to: ${path}\nRead that file (with offset and limit) or search it to see the rest.\n\n` +
    `${shown}\n</persisted-output>`;
  return { block: { ...block, content: notice }, path };
}

/**
 * Maps a tool's output to the block the model sees: the tool's own mapping, the empty-result marker,
 * and the budget. Results with images are never persisted.
 */
export async function toToolResultBlock(
  tool: Tool,
  output: unknown,
  toolUseId: string,
  toolResultsDir: string,
): Promise<{ block: ToolResultBlock; persistedPath?: string }> {
  const mapped = tool.mapToolResultToToolResultBlockParam(output, toolUseId);
  const block: ToolResultBlock = { ...mapped, tool_use_id: toolUseId };
  if (isEmptyContent(block.content)) {
    return { block: { ...block, content: `(${tool.name} completed with no output)` } };
  }
  const hasImage = typeof block.content !== "string" && block.content.some((part) => part.type === "image");
  if (hasImage || resultTextLength(block.content) <= resultBudget(tool)) return { block };
  const persisted = await persistLargeResult(block, toolResultsDir);
  return persisted.path
    ? { block: persisted.block, persistedPath: persisted.path }
    : { block: persisted.block };
}
