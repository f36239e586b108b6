// MultiEdit: several replacements in one file, applied in order to the content in memory; all of
// them land, or none does (an error names the failing edit's index).

import { readFileSync } from "node:fs";
import { extname } from "node:path";
import * as z from "zod";
import { pathRuleMatcher } from "../../permissions/pathRules.ts";
import { callPath } from "../../permissions/paths.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { applyEdit } from "../edit/applyEdit.ts";
import {
  describeFileChange,
  type FileChange,
  fileChangeView,
  mapFileChange,
  strategyNote,
} from "../shared/changeOutput.ts";
import { missingFile, previewFileChange } from "../shared/changePreview.ts";
import { changeTarget, loadTextFile, missingFileError, writeTextFile } from "../shared/editableFile.ts";
import { type LockedChange, withNewErrors } from "../shared/editDiagnostics.ts";
import { DEFAULT_TEXT_FORMAT, detectLineEnding, type TextFormat } from "../shared/encoding.ts";
import { withFileLock } from "../shared/fileLock.ts";
import { checkWritePermission } from "../shared/filePermissions.ts";
import { lenientBoolean } from "../shared/lenientSchema.ts";
import { assertReadAndUnchanged, checkReadRecordByStat } from "../shared/readState.ts";
import { multiEditToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

const editSchema = z.strictObject({
  old_string: z.string().describe("The text to replace"),
  new_string: z.string().describe("The text to replace it with"),
  replace_all: lenientBoolean("Replace every occurrence of old_string (default false)"),
});

export const multiEditInputSchema = z.strictObject({
  file_path: z.string().min(1).describe("The absolute path of the file to modify"),
  edits: z
    .array(editSchema)
    .min(1)
    .describe("Edits applied one after another, each to the result of the previous one"),
});

export type MultiEditInput = z.infer<typeof multiEditInputSchema>;

function pathOf(input: MultiEditInput, context: ToolUseContext): string {
  return callPath(input.file_path, context.getAppState());
}

function atIndex(index: number, error: ToolError): ToolError {
  return new ToolError(error.code, `edits[${index}]: ${error.message} No edit was applied.`);
}

async function validateMultiEdit(
  input: MultiEditInput,
  context: ToolUseContext,
): Promise<ToolError | undefined> {
  const path = pathOf(input, context);
  for (const [index, edit] of input.edits.entries()) {
    if (edit.old_string === edit.new_string) {
      return atIndex(index, new ToolError("no_change", "old_string and new_string are exactly the same."));
    }
    if (index > 0 && edit.old_string === "") {
      return atIndex(
        index,
        new ToolError(
          "invalid_input",
          "only the first edit may have an empty old_string (to create the file).",
        ),
      );
    }
  }
  if (extname(path).toLowerCase() === ".ipynb") {
    return new ToolError("wrong_tool", `${path} is a Jupyter notebook; edit it with the NotebookEdit tool.`);
  }
  const target = await changeTarget(MultiEditTool as Tool, input, path, context);
  if ("problem" in target) return target.problem;
  const { stats } = target;
  const creates = input.edits[0]?.old_string === "";
  if (!stats)
    return creates
      ? undefined
      : missingFileError(path, "To create it, make the first edit's old_string empty.");
  if (creates && stats.size > 0) {
    return atIndex(
      0,
      new ToolError(
        "file_exists",
        `${path} already exists and is not empty; an empty old_string only creates files.`,
      ),
    );
  }
  if (creates) return undefined;
  return checkReadRecordByStat(context, path, stats.mtimeMs, { requireFullRead: false });
}

async function performMultiEdit(input: MultiEditInput, context: ToolUseContext): Promise<FileChange> {
  const path = pathOf(input, context);
  const signal = context.abortController.signal;
  // The check that the file is as it was read and the write are one step, also across processes.
  const done = await withFileLock(path, (held) => multiEditLocked(input, context, path, held.signal), {
    signal,
  });
  // Diagnostics wait for the language server: outside the lock, so other writers need not wait too.
  return withNewErrors(context, done.change, done.before, done.after);
}

async function multiEditLocked(
  input: MultiEditInput,
  context: ToolUseContext,
  path: string,
  signal: AbortSignal,
): Promise<LockedChange> {
  const problem = await validateMultiEdit(input, context);
  if (problem) throw problem;
  const file = await loadTextFile(path);
  const creates = input.edits[0]?.old_string === "";
  if (!file && !creates)
    throw await missingFileError(path, "To create it, make the first edit's old_string empty.");
  if (file && !creates) {
    assertReadAndUnchanged(
      context,
      path,
      { mtimeMs: file.stats.mtimeMs, bytes: file.bytes },
      { requireFullRead: false },
    );
  }
  const before = file?.text ?? "";
  let text = creates ? (input.edits[0]?.new_string ?? "") : before;
  const format: TextFormat = file?.format ?? { ...DEFAULT_TEXT_FORMAT, lineEnding: detectLineEnding(text) };
  const strategies: string[] = creates ? ["create"] : [];
  const notes: string[] = [];
  let replacements = 0;
  for (const [index, edit] of input.edits.entries()) {
    if (creates && index === 0) continue;
    try {
      const applied = applyEdit(text, edit, format.lineEnding, path);
      text = applied.text;
      strategies.push(applied.strategy);
      replacements += applied.replacements;
      const note = strategyNote(applied.strategy, applied.forgiven, `edits[${index}].old_string`);
      if (note) notes.push(note);
    } catch (error) {
      throw error instanceof ToolError ? atIndex(index, error) : error;
    }
  }
  await writeTextFile(context, path, text, format, { expect: file?.stats ?? "absent", signal });
  const change = {
    ...describeFileChange(file ? "update" : "create", path, before, text),
    strategies,
    replacements,
    ...(notes.length ? { notes } : {}),
  };
  return { change, before: file ? before : undefined, after: text };
}

export const MultiEditTool: Tool<MultiEditInput, FileChange> = buildTool<MultiEditInput, FileChange>({
  ...multiEditToolMeta,
  searchHint: "several find-and-replace edits in one file at once",
  inputSchema: multiEditInputSchema,
  maxResultSizeChars: 100_000,
  ruleMatcher: pathRuleMatcher,
  isReadOnly: false,
  isConcurrencySafe: false,
  getPath: (input) => input.file_path,
  description: (input) => `Edit ${input?.file_path ?? "a file"} (${input?.edits?.length ?? 0} edits)`,
  prompt: () => PROMPT,
  toAutoClassifierInput: (input) =>
    `${input.file_path}: ${input.edits.map((edit) => edit.new_string).join("\n")}`,
  async validateInput(input, context) {
    const problem = await validateMultiEdit(input, context);
    return problem ? { result: false, message: problem.message, errorCode: problem.code } : { result: true };
  },
  checkPermissions: (input, context) => checkWritePermission(MultiEditTool, input, input.file_path, context),
  async call(input, context) {
    return { data: await performMultiEdit(input, context) };
  },
  mapToolResultToToolResultBlockParam: mapFileChange,
  renderToolUse: (input) => ({
    kind: "text",
    text: `MultiEdit ${input.file_path} (${input.edits.length} edits)`,
  }),
  renderToolUsePreview: (input, context) => {
    const path = pathOf(input, context);
    return previewFileChange(path, (file) => {
      const creates = input.edits[0]?.old_string === "";
      if (!creates && file.text === undefined) throw missingFile(path);
      let text = creates ? (input.edits[0]?.new_string ?? "") : (file.text ?? "");
      for (const edit of input.edits.slice(creates ? 1 : 0))
        text = applyEdit(text, edit, file.lineEnding, path).text;
      return text;
    });
  },
  renderToolResult: (output) => fileChangeView(output),
});
