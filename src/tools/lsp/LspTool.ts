// LSP: code intelligence from real language servers (definition, references, hover, symbols, call
// hierarchy). Read-only and concurrency-safe; paths are governed like Read: Read rules apply to the file
// asked about, and results in files Read rules deny are left out.
import { readFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import * as z from "zod";
import { runningServerForFile, serverForFile } from "../../lsp/sessionServers.ts";
import { pathRuleMatcher } from "../../permissions/pathRules.ts";
import { callPath } from "../../permissions/paths.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { checkReadPermission, denyRuleError } from "../shared/filePermissions.ts";
import { formatResult, MAX_LISTED } from "./formatResults.ts";
import { lspToolMeta } from "./meta.ts";
import {
  LSP_OPERATIONS,
  type LspOperation,
  type OperationRequest,
  POSITIONLESS,
  runOperation,
} from "./operations.ts";
import { projectConfigNote } from "./projectConfigNote.ts";
import { deniedPaths, formatScope, placesOf, withoutDeniedHover } from "./readPolicy.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8")
  .replaceAll("{{MAX_LISTED}}", String(MAX_LISTED))
  .trim();

/** Larger files are not sent to a server. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

function lenientPositive(description: string) {
  return z
    .preprocess(
      (value) => (typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
      z.number().int().min(1),
    )
    .optional()
    .describe(description);
}

export const lspInputSchema = z.strictObject({
  operation: z.enum(LSP_OPERATIONS).describe("The LSP operation to perform"),
  filePath: z
    .string()
    .min(1)
    .describe("The file to operate on (absolute, or relative to the working directory)"),
  line: lenientPositive("The line number (1-based, as shown in editors)"),
  character: lenientPositive("The character offset in the line (1-based, as shown in editors)"),
  query: z.string().optional().describe("For workspaceSymbol: the symbol name or part of it to search for"),
});

export type LspInput = z.infer<typeof lspInputSchema>;

export interface LspOutput {
  operation: LspOperation;
  filePath: string;
  /** The numbered list (or hover text) the model reads. */
  result: string;
  resultCount: number;
  /** Which server answered. */
  server: string;
}

function absolutePathOf(input: LspInput, context: ToolUseContext): string {
  return callPath(input.filePath, context.getAppState());
}

function inputProblem(input: LspInput): string | undefined {
  if (input.operation === "workspaceSymbol" && !input.query?.trim())
    return "workspaceSymbol needs a query: the symbol name or part of it.";
  if (!POSITIONLESS.has(input.operation) && (input.line === undefined || input.character === undefined))
    return `${input.operation} needs line and character (1-based) of the symbol in the file.`;
  return undefined;
}

async function readSource(path: string): Promise<string> {
  let size: number;
  try {
    const stats = await stat(path);
    if (stats.isDirectory())
      throw new ToolError("is_directory", `${path} is a directory; give the path of a source file.`);
    if (!stats.isFile()) throw new ToolError("unsupported_file", `${path} is not a regular file.`);
    size = stats.size;
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError("file_not_found", `File does not exist: ${path}.`);
  }
  if (size > MAX_FILE_BYTES)
    throw new ToolError(
      "too_large",
      `${path} is ${size} bytes; files over ${MAX_FILE_BYTES} bytes are not sent to a language server.`,
    );
  return readFile(path, "utf8");
}

export interface LspProgress {
  text: string;
}

async function runLsp(
  input: LspInput,
  context: ToolUseContext,
  report: (progress: LspProgress) => void,
): Promise<LspOutput> {
  const problem = inputProblem(input);
  if (problem) throw new ToolError("invalid_input", problem);
  const path = absolutePathOf(input, context);
  const refused = await denyRuleError(LspTool as Tool, input, context, "read");
  if (refused) throw refused;
  const text = await readSource(path);
  const lineCount = text.split("\n").length;
  if (input.line !== undefined && input.line > lineCount && !POSITIONLESS.has(input.operation))
    throw new ToolError(
      "invalid_input",
      `line ${input.line} is past the end of ${path} (${lineCount} lines).`,
    );
  if (!runningServerForFile(context, path))
    report({ text: "Starting the language server (the first call for a language takes a few seconds)…" });
  const server = await serverForFile(context, path);
  const document = server.documents.sync(path, text);
  const position = { line: (input.line ?? 1) - 1, character: (input.character ?? 1) - 1 };
  const query = input.query?.trim() ?? "";
  const request: OperationRequest = {
    operation: input.operation,
    uri: document.uri,
    path,
    position,
    query,
    signal: context.abortController.signal,
  };
  const answer = await runOperation(server, request);
  const result = await withoutDeniedHover(LspTool as Tool, input, answer, server, request, context);
  const denied = await deniedPaths(
    LspTool as Tool,
    input,
    placesOf(result).map((place) => place.path),
    context,
  );
  const formatted = formatResult(
    result,
    { operation: input.operation, path, position, query },
    formatScope(context, denied),
  );
  const note = projectConfigNote(server.name, input.operation, path, server.root);
  return {
    operation: input.operation,
    filePath: path,
    result: note ? `${formatted.text}\n${note}` : formatted.text,
    resultCount: formatted.count,
    server: server.description,
  };
}

export const LspTool: Tool<LspInput, LspOutput, LspProgress> = buildTool<LspInput, LspOutput, LspProgress>({
  ...lspToolMeta,
  searchHint: "code intelligence: go to definition, find references, hover, symbols, call hierarchy",
  inputSchema: lspInputSchema,
  maxResultSizeChars: 100_000,
  ruleMatcher: pathRuleMatcher,
  isReadOnly: true,
  isConcurrencySafe: true,
  interruptBehavior: () => "cancel",
  getPath: (input) => input.filePath,
  description: (input) => `LSP ${input?.operation ?? "query"} in ${input?.filePath ?? "a file"}`,
  prompt: () => PROMPT,
  toAutoClassifierInput: (input) =>
    `${input.operation} ${input.filePath}:${input.line ?? ""}:${input.character ?? ""}`,
  async validateInput(input, context) {
    const problem = inputProblem(input);
    if (problem) return { result: false, message: problem, errorCode: "invalid_input" };
    const denied = await denyRuleError(LspTool as Tool, input, context, "read");
    if (denied) return { result: false, message: denied.message, errorCode: denied.code };
    return { result: true };
  },
  checkPermissions: (input, context) => checkReadPermission(LspTool, input, input.filePath, context),
  async call(input, context, _canUseTool, parentMessage, onProgress) {
    const report = (data: LspProgress) => onProgress({ toolUseId: parentMessage?.id ?? "", data });
    return { data: await runLsp(input, context, report) };
  },
  mapToolResultToToolResultBlockParam: (output, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: output.result,
  }),
  renderToolUse: (input) => ({
    kind: "text",
    text: `LSP ${input.operation} ${input.filePath}${input.line ? `:${input.line}:${input.character ?? 1}` : ""}${input.query ? ` "${input.query}"` : ""}`,
  }),
  renderToolResult: (output) => ({ kind: "text", text: output.result }),
  renderToolProgress: (progress) => ({ kind: "progress", text: progress.text }),
});
