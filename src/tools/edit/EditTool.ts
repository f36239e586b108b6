// Edit: replace one string in a file (or every copy, with replace_all). The file must have been read
// and be unchanged since; the write is atomic and keeps the file's format.

import { readFileSync } from "node:fs";
import { extname } from "node:path";
import * as z from "zod";
import { pathRuleMatcher } from "../../permissions/pathRules.ts";
import { callPath } from "../../permissions/paths.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import {
  describeFileChange,
  type FileChange,
  fileChangeView,
  mapFileChange,
  strategyNote,
} from "../shared/changeOutput.ts";
import { missingFile, previewFileChange, replacementView } from "../shared/changePreview.ts";
import { changeTarget, loadTextFile, missingFileError, writeTextFile } from "../shared/editableFile.ts";
import { type LockedChange, withNewErrors } from "../shared/editDiagnostics.ts";
import { DEFAULT_TEXT_FORMAT, detectLineEnding } from "../shared/encoding.ts";
import { withFileLock } from "../shared/fileLock.ts";
import { checkWritePermission } from "../shared/filePermissions.ts";
import { lenientBoolean } from "../shared/lenientSchema.ts";
import { assertReadAndUnchanged, checkReadRecordByStat } from "../shared/readState.ts";
import { applyEdit, type EditSite } from "./applyEdit.ts";
import { editToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

export const editInputSchema = z.strictObject({
  file_path: z.string().min(1).describe("The absolute path of the file to modify"),
  old_string: z.string().describe("The text to replace (empty to create a new file)"),
  new_string: z.string().describe("The text to replace it with (must differ from old_string)"),
  replace_all: lenientBoolean("Replace every occurrence of old_string (default false)"),
});

export type EditInput = z.infer<typeof editInputSchema>;

const NOTEBOOK_ERROR = (path: string) =>
  new ToolError("wrong_tool", `${path} is a Jupyter notebook; edit it with the NotebookEdit tool, not Edit.`);

function pathOf(input: { file_path: string }, context: ToolUseContext): string {
  return callPath(input.file_path, context.getAppState());
}

/** Checks that need no file content; call() repeats the decisive ones under the file's lock. */
async function validateEdit(input: EditInput, context: ToolUseContext): Promise<ToolError | undefined> {
  const path = pathOf(input, context);
  if (input.old_string === input.new_string) {
    return new ToolError("no_change", "No changes to make: old_string and new_string are exactly the same.");
  }
  if (extname(path).toLowerCase() === ".ipynb") return NOTEBOOK_ERROR(path);
  const target = await changeTarget(EditTool as Tool, input, path, context);
  if ("problem" in target) return target.problem;
  const { stats } = target;
  if (!stats) {
    if (input.old_string === "") return undefined;
    return missingFileError(path, "To create a new file, use an empty old_string (or the Write tool).");
  }
  if (input.old_string === "" && stats.size > 0) return existsError(path);
  if (stats.size === 0 && input.old_string === "") return undefined;
  return checkReadRecordByStat(context, path, stats.mtimeMs, { requireFullRead: false });
}

function existsError(path: string): ToolError {
  return new ToolError(
    "file_exists",
    `Cannot create ${path}: it already exists and is not empty. Give old_string to say what to replace, or read the file and use Write to replace all of it.`,
  );
}

/** The unchanged head and tail around the edit sites, so the diff need not search for them. */
function changedSpan(
  before: string,
  sites: readonly EditSite[],
): { prefix: number; suffix: number } | undefined {
  const first = sites[0];
  const last = sites.at(-1);
  return first && last
    ? { prefix: first.index, suffix: before.length - (last.index + last.length) }
    : undefined;
}

async function performEdit(input: EditInput, context: ToolUseContext): Promise<FileChange> {
  const path = pathOf(input, context);
  const signal = context.abortController.signal;
  // The check that the file is as it was read and the write are one step, also across processes.
  const done = await withFileLock(path, (held) => editLocked(input, context, path, held.signal), { signal });
  // Diagnostics wait for the language server: outside the lock, so other writers need not wait too.
  return withNewErrors(context, done.change, done.before, done.after);
}

async function editLocked(
  input: EditInput,
  context: ToolUseContext,
  path: string,
  signal: AbortSignal,
): Promise<LockedChange> {
  const problem = await validateEdit(input, context);
  if (problem) throw problem;
  const file = await loadTextFile(path);
  if (!file) {
    if (input.old_string !== "")
      throw await missingFileError(path, "To create a new file, use an empty old_string.");
    const format = { ...DEFAULT_TEXT_FORMAT, lineEnding: detectLineEnding(input.new_string) };
    await writeTextFile(context, path, input.new_string, format, { expect: "absent", signal });
    const created = { ...describeFileChange("create", path, "", input.new_string), strategies: ["create"] };
    return { change: created, before: undefined, after: input.new_string };
  }
  if (input.old_string === "") {
    if (file.text !== "") throw existsError(path);
    await writeTextFile(context, path, input.new_string, file.format, { expect: file.stats, signal });
    const filled = {
      ...describeFileChange("update", path, "", input.new_string),
      strategies: ["fill-empty"],
    };
    return { change: filled, before: "", after: input.new_string };
  }
  assertReadAndUnchanged(
    context,
    path,
    { mtimeMs: file.stats.mtimeMs, bytes: file.bytes },
    { requireFullRead: false },
  );
  const applied = applyEdit(file.text, input, file.format.lineEnding, path);
  await writeTextFile(context, path, applied.text, file.format, {
    splices: { file, sites: applied.sites },
    expect: file.stats,
    signal,
  });
  const note = strategyNote(applied.strategy, applied.forgiven);
  const change = {
    ...describeFileChange("update", path, file.text, applied.text, changedSpan(file.text, applied.sites)),
    strategies: [applied.strategy],
    replacements: applied.replacements,
    ...(note ? { notes: [note] } : {}),
  };
  return { change, before: file.text, after: applied.text };
}

export const EditTool: Tool<EditInput, FileChange> = buildTool<EditInput, FileChange>({
  ...editToolMeta,
  searchHint: "modify a file by replacing exact text",
  inputSchema: editInputSchema,
  maxResultSizeChars: 100_000,
  ruleMatcher: pathRuleMatcher,
  isReadOnly: false,
  isConcurrencySafe: false,
  getPath: (input) => input.file_path,
  description: (input) => `Edit ${input?.file_path ?? "a file"}`,
  prompt: () => PROMPT,
  toAutoClassifierInput: (input) => `${input.file_path}: ${input.new_string}`,
  async validateInput(input, context) {
    const problem = await validateEdit(input, context);
    return problem ? { result: false, message: problem.message, errorCode: problem.code } : { result: true };
  },
  checkPermissions: (input, context) => checkWritePermission(EditTool, input, input.file_path, context),
  async call(input, context) {
    return { data: await performEdit(input, context) };
  },
  mapToolResultToToolResultBlockParam: mapFileChange,
  renderToolUse: (input) => ({ kind: "text", text: `Edit ${input.file_path}` }),
  renderToolUsePreview: (input, context) => {
    const path = pathOf(input, context);
    return previewFileChange(
      path,
      (file) => {
        if (input.old_string === "" && !file.text) return input.new_string;
        if (file.text === undefined) throw missingFile(path);
        return applyEdit(file.text, input, file.lineEnding, path).text;
      },
      () => replacementView(path, input.old_string, input.new_string, "the replacement as given"),
    );
  },
  renderToolResult: (output) => fileChangeView(output),
});
