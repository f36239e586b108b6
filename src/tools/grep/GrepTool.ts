// Grep: content search with ripgrep. Read-only, concurrency-safe, governed by Read rules.

import { readFileSync } from "node:fs";
import * as z from "zod";
import { pathRuleMatcher } from "../../permissions/pathRules.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { paginationNote } from "../search-shared/pagination.ts";
import { checkSearchPermission, resolveSearchRoot, validateSearchPath } from "../search-shared/searchRoot.ts";
import { lenientBoolean, lenientInteger } from "../shared/lenientSchema.ts";
import { grepToolMeta } from "./meta.ts";
import { type GrepInput, type GrepOutput, searchContents } from "./searchContents.ts";

export type { GrepInput, GrepOutput } from "./searchContents.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

/** Grep's result budget: 20,000 characters (larger results are saved with a preview). */
export const GREP_MAX_RESULT_CHARS = 20_000;

export const grepInputSchema = z.strictObject({
  pattern: z.string().min(1).describe("The regular expression to search for (ripgrep syntax)"),
  path: z
    .string()
    .optional()
    .describe(
      "File or folder to search, absolute or relative to the current directory. Default: the current directory",
    ),
  glob: z.string().optional().describe('Only files matching these globs, e.g. "*.ts" or "**/*.{ts,tsx}"'),
  output_mode: z
    .enum(["content", "files_with_matches", "count"])
    .optional()
    .describe(
      '"content": matching lines; "files_with_matches": file paths, newest first (default); "count": matches per file',
    ),
  "-B": lenientInteger("Lines of context before each match (content mode)"),
  "-A": lenientInteger("Lines of context after each match (content mode)"),
  "-C": lenientInteger("Lines of context before and after each match (content mode)"),
  context: lenientInteger("Same as -C"),
  "-n": lenientBoolean("Show line numbers (content mode). Default: true"),
  "-i": lenientBoolean("Case-insensitive search"),
  type: z.string().optional().describe("ripgrep file type, e.g. js, ts, py, rust, go, java"),
  head_limit: lenientInteger(
    "Show at most this many entries (lines, files or counts). Default: 250; 0: no limit",
  ),
  offset: lenientInteger("Skip this many entries first, to page through results. Default: 0"),
  multiline: lenientBoolean("Let patterns span lines and . match newlines. Default: false"),
});

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** The text the model reads. */
export function formatGrepOutput(output: GrepOutput): string {
  const unit = output.mode === "content" ? "lines" : "files";
  const note = paginationNote(
    { offset: output.offset, shown: output.shownEntries, total: output.totalEntries },
    unit,
  );
  const parts: string[] = [];
  if (output.totalEntries === 0)
    parts.push(output.mode === "files_with_matches" ? "No files found" : "No matches found");
  else if (output.mode === "files_with_matches")
    parts.push(`Found ${plural(output.numFiles, "file")}`, output.filenames.join("\n"));
  else if (output.mode === "count") {
    if (output.content) parts.push(output.content);
    parts.push(
      `\nFound ${plural(output.numMatches ?? 0, "matching line")} in ${plural(output.numFiles, "file")}.`,
    );
  } else if (output.content) parts.push(output.content);
  if (note) parts.push(`\n${note}`);
  for (const extra of output.notes) parts.push(`\n[${extra}]`);
  return parts.join("\n");
}

export const GrepTool: Tool<GrepInput, GrepOutput> = buildTool<GrepInput, GrepOutput>({
  ...grepToolMeta,
  searchHint: "search file contents with a regular expression (ripgrep)",
  inputSchema: grepInputSchema,
  maxResultSizeChars: GREP_MAX_RESULT_CHARS,
  ruleMatcher: pathRuleMatcher,
  isReadOnly: true,
  isConcurrencySafe: true,
  interruptBehavior: () => "cancel",
  prompt: () => PROMPT,
  description: (input) => `Search for "${input.pattern}"${input.path ? ` in ${input.path}` : ""}`,
  getPath: (input) => input.path ?? ".",
  userFacingName: () => "Search",
  title: "Search file contents",
  toAutoClassifierInput: (input) => (input.path ? `${input.pattern} in ${input.path}` : input.pattern),
  validateInput: (input, context) => validateSearchPath(input.path, context, { toolName: grepToolMeta.name }),
  checkPermissions: (input, context) => checkSearchPermission(GrepTool, input.path, input, context),
  async call(input, context) {
    const root = await resolveSearchRoot(GrepTool, input, input.path, context);
    const data = await searchContents(input, root, { signal: context.abortController.signal });
    return { data };
  },
  mapToolResultToToolResultBlockParam: (output, toolUseId) => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: formatGrepOutput(output),
  }),
  renderToolUse: (input) => ({
    kind: "text",
    text: `pattern: "${input.pattern}"${input.path ? `, path: "${input.path}"` : ""}${input.glob ? `, glob: "${input.glob}"` : ""}`,
  }),
  renderToolResult: (output) => ({
    kind: "text",
    text:
      output.mode === "content"
        ? `Found ${plural(output.totalEntries, "line")}`
        : `Found ${plural(output.numFiles, "file")}`,
  }),
});
