// Read: text with numbered lines, images, PDFs and notebooks. Read-only, concurrency-safe, and its
// result is never persisted to disk (the model must see what it asked for, or a clear refusal).

import { readFileSync, type Stats, statSync } from "node:fs";
import { extname } from "node:path";
import * as z from "zod";
import { warmServerForRead } from "../../lsp/editDiagnostics.ts";
import { pathRuleMatcher } from "../../permissions/pathRules.ts";
import { callPath, pathResolutionScope } from "../../permissions/paths.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { checkReadPermission, denyRuleError } from "../shared/filePermissions.ts";
import { getReadRecord, recordFileState } from "../shared/readState.ts";
import { didYouMean } from "../shared/similarNames.ts";
import { readToolMeta } from "./meta.ts";
import { mapReadResult, type ReadOutput, readResultChars, readResultContent } from "./output.ts";
import { IMAGE_EXTENSIONS, readImage } from "./readImage.ts";
import { readNotebook } from "./readNotebook.ts";
import { pageRangeSyntaxError, readPdf } from "./readPdf.ts";
import { DEFAULT_LINE_LIMIT, MAX_LINE_CHARS, readTextFile } from "./readText.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8")
  .replaceAll("{{DEFAULT_LINE_LIMIT}}", String(DEFAULT_LINE_LIMIT))
  .replaceAll("{{MAX_LINE_CHARS}}", String(MAX_LINE_CHARS))
  .trim();

/** Without the conversation (MCP), a re-read is always a full read: the prompt does not promise the stub. */
const CONVERSATIONLESS_PROMPT = PROMPT.split("\n")
  .filter((line) => !line.startsWith("- Reading a file again when it has not changed"))
  .join("\n");

/** Output beyond this many tokens (characters / 4) is refused with advice to read a range. */
export const DEFAULT_MAX_READ_TOKENS = 25_000;

const BINARY_EXTENSIONS = new Set(
  (
    "exe dll so dylib o a obj lib class jar war pyc pyo wasm node zip gz tgz bz2 xz zst 7z rar tar iso dmg " +
    "mp3 mp4 m4a mov avi mkv wav flac ogg webm woff woff2 ttf otf eot ico bmp tif tiff psd sqlite sqlite3 db"
  ).split(" "),
);

function lenientNumber(schema: z.ZodNumber) {
  return z.preprocess(
    (value) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
    schema,
  );
}

export const readInputSchema = z.strictObject({
  file_path: z.string().min(1).describe("The absolute path of the file to read"),
  offset: lenientNumber(z.number().int().min(0))
    .optional()
    .describe(
      "The line number to start reading from (1-based). Only give it for files too large to read at once",
    ),
  limit: lenientNumber(z.number().int().min(1))
    .optional()
    .describe(
      `How many lines to read. Only give it for files too large to read at once (default ${DEFAULT_LINE_LIMIT})`,
    ),
  pages: z
    .string()
    .optional()
    .describe(
      'Page range of a PDF file, e.g. "1-5", "3" or "10-20"; at most 20 pages per call. Only for PDFs',
    ),
});

export type ReadInput = z.infer<typeof readInputSchema>;

function absolutePathOf(input: ReadInput, context: ToolUseContext): string {
  return callPath(input.file_path, context.getAppState());
}

function extensionOf(path: string): string {
  return extname(path).slice(1).toLowerCase();
}

/** A synchronous stat: one system call, where fs/promises would add a round trip through the thread pool. */
async function statOrExplain(path: string, context: ToolUseContext): Promise<Stats> {
  try {
    return statSync(path);
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code === "ENOENT" ||
      (error as NodeJS.ErrnoException).code === "ENOTDIR"
    ) {
      throw new ToolError(
        "file_not_found",
        `File does not exist: ${path}.${await didYouMean(path)} The current working directory is ${context.getAppState().cwd}.`,
      );
    }
    throw new ToolError("tool_failed", `Cannot read ${path}: ${(error as Error).message}`);
  }
}

function specialFileKind(stats: Stats): string {
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

function enforceTokenLimit(output: ReadOutput, path: string, context: ToolUseContext): void {
  if (output.type === "image" || output.type === "file_unchanged") return;
  const maxTokens = context.fileReadingLimits?.maxTokens ?? DEFAULT_MAX_READ_TOKENS;
  const tokens = Math.ceil(readResultChars(output) / 4);
  if (tokens <= maxTokens) return;
  const advice =
    output.type === "pdf"
      ? "Read fewer pages at a time with pages."
      : output.type === "notebook"
        ? "Use Bash with jq to read specific cells, or Grep to find what you need."
        : "Use offset and limit to read part of the file, or Grep to find what you need.";
  throw new ToolError(
    "too_large",
    `File content (about ${tokens} tokens) exceeds the maximum of ${maxTokens} tokens for one read: ${path}. ${advice}`,
  );
}

async function readFileAt(
  path: string,
  input: ReadInput,
  context: ToolUseContext,
  toolUseId: string | undefined,
): Promise<ReadOutput> {
  const stats = await statOrExplain(path, context);
  if (stats.isDirectory()) {
    throw new ToolError(
      "is_directory",
      `${path} is a directory, not a file. Use the LS tool (or Glob) to list what it holds.`,
    );
  }
  if (!stats.isFile()) {
    throw new ToolError(
      "unsupported_file",
      `${path} is ${specialFileKind(stats)}; Read only reads regular files.`,
    );
  }
  const extension = extensionOf(path);
  const offset = Math.max(1, input.offset ?? 1);
  const limit = input.limit ?? DEFAULT_LINE_LIMIT;
  if (IMAGE_EXTENSIONS.has(extension)) return readImage(path, stats.size);
  if (extension === "pdf") return readPdf(path, stats.size, input.pages);
  if (BINARY_EXTENSIONS.has(extension)) {
    throw new ToolError(
      "unsupported_file",
      `${path} is a binary file (.${extension}); Read cannot show it. Use Bash to inspect it.`,
    );
  }

  const previous = getReadRecord(context, path);
  if (
    previous &&
    previous.offset === offset &&
    previous.limit === limit &&
    previous.mtimeMs === stats.mtimeMs
  ) {
    return { type: "file_unchanged", file: { filePath: path } };
  }
  const maxBytes = context.fileReadingLimits?.maxSizeBytes;
  if (
    maxBytes !== undefined &&
    stats.size > maxBytes &&
    input.offset === undefined &&
    input.limit === undefined
  ) {
    throw new ToolError(
      "too_large",
      `${path} is ${stats.size} bytes, over the ${maxBytes}-byte limit for reading a whole file. Use offset and limit to read part of it, or Grep to search it.`,
    );
  }
  const { output, record } =
    extension === "ipynb"
      ? await readNotebook(path, stats)
      : await readTextFile(path, stats, { offset, limit, signal: context.abortController.signal });
  enforceTokenLimit(output, path, context);
  recordFileState(context, path, { ...record, offset, limit, ...(toolUseId ? { toolUseId } : {}) });
  return output;
}

export const ReadTool: Tool<ReadInput, ReadOutput> = buildTool<ReadInput, ReadOutput>({
  ...readToolMeta,
  searchHint: "read a file: text with line numbers, images, PDFs, notebooks",
  inputSchema: readInputSchema,
  maxResultSizeChars: Number.POSITIVE_INFINITY,
  ruleMatcher: pathRuleMatcher,
  isReadOnly: true,
  isConcurrencySafe: true,
  interruptBehavior: () => "cancel",
  getPath: (input) => input.file_path,
  description: (input) => `Read ${input?.file_path ?? "a file"}`,
  prompt: (options) => (options?.conversationless ? CONVERSATIONLESS_PROMPT : PROMPT),
  toAutoClassifierInput: (input) => input.file_path,
  inputsEquivalent: (a, b) =>
    a.file_path === b.file_path && a.offset === b.offset && a.limit === b.limit && a.pages === b.pages,
  async validateInput(input, context) {
    const path = absolutePathOf(input, context);
    if (input.pages !== undefined) {
      if (extensionOf(path) !== "pdf")
        return {
          result: false,
          message: "pages is only for PDF files; use offset and limit for text.",
          errorCode: "invalid_input",
        };
      const problem = pageRangeSyntaxError(input.pages);
      if (problem) return { result: false, message: problem, errorCode: "invalid_input" };
    }
    const denied = await denyRuleError(ReadTool as Tool, input, context, "read");
    if (denied) return { result: false, message: denied.message, errorCode: denied.code };
    return { result: true };
  },
  checkPermissions: (input, context) => checkReadPermission(ReadTool, input, input.file_path, context),
  async call(input, context, _canUseTool, toolUse) {
    // The deny rules, the read record's names and the language server's folder all resolve the same
    // path: once, for the whole call (Read changes nothing on disk).
    const resolutions = pathResolutionScope();
    try {
      return await resolutions.run(async () => {
        const path = absolutePathOf(input, context);
        const denied = await denyRuleError(ReadTool as Tool, input, context, "read");
        if (denied) throw denied;
        const data = await readFileAt(path, input, context, toolUse?.id);
        // A file that will likely be edited next: its language server starts now, so the edit can report errors.
        if (data.type === "text") warmServerForRead(context, path);
        return { data };
      });
    } finally {
      resolutions.close();
    }
  },
  mapToolResultToToolResultBlockParam: mapReadResult,
  renderToolUse: (input) => ({ kind: "text", text: `Read ${input.file_path}` }),
  renderToolResult(output) {
    switch (output.type) {
      case "text":
        return { kind: "text", text: `Read ${output.file.numLines} lines from ${output.file.filePath}` };
      case "image":
        return { kind: "text", text: `Read image ${output.file.filePath}` };
      case "pdf":
        return {
          kind: "text",
          text: `Read ${output.file.pages.length} PDF pages from ${output.file.filePath}`,
        };
      case "notebook":
        return { kind: "text", text: `Read ${output.file.cells.length} cells from ${output.file.filePath}` };
      default:
        return { kind: "text", text: String(readResultContent(output)) };
    }
  },
});
