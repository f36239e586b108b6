// NotebookEdit: replace, insert or delete one cell of a Jupyter notebook. The result is valid nbformat
// in the file's own JSON layout; an edited code cell loses its now stale outputs and execution count.

import { readFileSync } from "node:fs";
import { extname } from "node:path";
import * as z from "zod";
import { pathRuleMatcher } from "../../permissions/pathRules.ts";
import { callPath } from "../../permissions/paths.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import type { ToolResultBlock } from "../../tool/messages.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import { readOnlyProblem } from "../shared/atomicWrite.ts";
import { describeFileChange, type FileChange, fileChangeView } from "../shared/changeOutput.ts";
import { loadTextFile, missingFileError, statIfExists, writeTextFile } from "../shared/editableFile.ts";
import { convertLineEndings } from "../shared/encoding.ts";
import { withFileLock } from "../shared/fileLock.ts";
import { checkWritePermission, denyRuleError } from "../shared/filePermissions.ts";
import { assertReadAndUnchanged, checkReadRecordByStat } from "../shared/readState.ts";
import { applyCellEdit, type CellEdit } from "./cellEdit.ts";
import { notebookEditToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

export const notebookEditInputSchema = z.strictObject({
  notebook_path: z.string().min(1).describe("The absolute path of the Jupyter notebook (.ipynb) to edit"),
  cell_id: z
    .string()
    .optional()
    .describe(
      "The id of the cell to edit. For insert: the new cell goes after it (at the start when omitted)",
    ),
  new_source: z.string().describe("The new source of the cell (ignored for delete)"),
  cell_type: z.enum(["code", "markdown"]).optional().describe("The cell's type. Required for insert"),
  edit_mode: z
    .enum(["replace", "insert", "delete"])
    .optional()
    .describe("replace (default), insert or delete"),
});

export type NotebookEditInput = z.infer<typeof notebookEditInputSchema>;

export interface NotebookEditOutput extends FileChange {
  editMode: "replace" | "insert" | "delete";
  cellId: string;
  cellType?: string;
}

function pathOf(input: NotebookEditInput, context: ToolUseContext): string {
  return callPath(input.notebook_path, context.getAppState());
}

function inputProblem(input: NotebookEditInput, path: string): ToolError | undefined {
  if (extname(path).toLowerCase() !== ".ipynb") {
    return new ToolError(
      "wrong_tool",
      `${path} is not a Jupyter notebook (.ipynb); use Edit for other files.`,
    );
  }
  const mode = input.edit_mode ?? "replace";
  if (mode === "insert" && input.cell_type === undefined) {
    return new ToolError("invalid_input", "cell_type is required when inserting a cell (code or markdown).");
  }
  if (mode !== "insert" && input.cell_id === undefined) {
    return new ToolError(
      "invalid_input",
      `cell_id is required to ${mode} a cell; Read the notebook to see the cell ids.`,
    );
  }
  return undefined;
}

async function performNotebookEdit(
  input: NotebookEditInput,
  context: ToolUseContext,
): Promise<NotebookEditOutput> {
  const path = pathOf(input, context);
  const problem =
    inputProblem(input, path) ?? (await denyRuleError(NotebookEditTool as Tool, input, context, "write"));
  if (problem) throw problem;
  const signal = context.abortController.signal;
  // The check that the notebook is as it was read and the write are one step, also across processes.
  return withFileLock(
    path,
    async (held) => {
      const file = await loadTextFile(path);
      if (!file)
        throw await missingFileError(path, "NotebookEdit changes existing notebooks; create one with Write.");
      assertReadAndUnchanged(
        context,
        path,
        { mtimeMs: file.stats.mtimeMs, bytes: file.bytes },
        { requireFullRead: true },
      );
      const edit: CellEdit = {
        mode: input.edit_mode ?? "replace",
        cellId: input.cell_id,
        source: input.new_source,
        cellType: input.cell_type,
      };
      const result = applyCellEdit(file.text, edit, path);
      const text = convertLineEndings(result.text, file.format.lineEnding);
      await writeTextFile(context, path, text, file.format, { expect: file.stats, signal: held.signal });
      return {
        ...describeFileChange("update", path, file.text, text),
        editMode: edit.mode,
        cellId: result.cellId,
        ...(result.cellType ? { cellType: result.cellType } : {}),
      };
    },
    { signal },
  );
}

function notebookEditText(output: NotebookEditOutput): string {
  switch (output.editMode) {
    case "replace":
      return `Updated cell ${output.cellId} of ${output.filePath}.`;
    case "insert":
      return `Inserted ${output.cellType ?? "a"} cell ${output.cellId} into ${output.filePath}.`;
    case "delete":
      return `Deleted cell ${output.cellId} from ${output.filePath}.`;
  }
}

export const NotebookEditTool: Tool<NotebookEditInput, NotebookEditOutput> = buildTool<
  NotebookEditInput,
  NotebookEditOutput
>({
  ...notebookEditToolMeta,
  searchHint: "edit, insert or delete a cell in a Jupyter notebook",
  inputSchema: notebookEditInputSchema,
  maxResultSizeChars: 100_000,
  ruleMatcher: pathRuleMatcher,
  isReadOnly: false,
  isDestructive: (input) => input.edit_mode === "delete",
  isConcurrencySafe: false,
  getPath: (input) => input.notebook_path,
  description: (input) =>
    `${input?.edit_mode ?? "replace"} a cell of ${input?.notebook_path ?? "a notebook"}`,
  prompt: () => PROMPT,
  toAutoClassifierInput: (input) =>
    `${input.notebook_path} ${input.edit_mode ?? "replace"}: ${input.new_source}`,
  async validateInput(input, context) {
    const path = pathOf(input, context);
    const problem =
      inputProblem(input, path) ?? (await denyRuleError(NotebookEditTool as Tool, input, context, "write"));
    if (problem) return { result: false, message: problem.message, errorCode: problem.code };
    const stats = await statIfExists(path);
    if (!stats) {
      const missing = await missingFileError(
        path,
        "NotebookEdit changes existing notebooks; create one with Write.",
      );
      return { result: false, message: missing.message, errorCode: missing.code };
    }
    const refused =
      checkReadRecordByStat(context, path, stats.mtimeMs, { requireFullRead: true }) ??
      (await readOnlyProblem(path, stats));
    return refused ? { result: false, message: refused.message, errorCode: refused.code } : { result: true };
  },
  checkPermissions: (input, context) =>
    checkWritePermission(NotebookEditTool, input, input.notebook_path, context),
  async call(input, context) {
    return { data: await performNotebookEdit(input, context) };
  },
  mapToolResultToToolResultBlockParam: (output, toolUseId): ToolResultBlock => ({
    type: "tool_result",
    tool_use_id: toolUseId,
    content: notebookEditText(output),
  }),
  renderToolUse: (input) => ({
    kind: "text",
    text: `NotebookEdit ${input.notebook_path} (${input.edit_mode ?? "replace"})`,
  }),
  renderToolResult: (output) => fileChangeView(output),
});
