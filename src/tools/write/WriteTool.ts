// Write: create a file, or replace one the session has read in full and that has not changed since.
// The write is atomic and keeps an existing file's encoding, BOM, line endings and mode.

import { readFileSync } from "node:fs";
import * as z from "zod";
import { pathRuleMatcher } from "../../permissions/pathRules.ts";
import { callPath } from "../../permissions/paths.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import type { ToolError } from "../../tool/errors.ts";
import { buildTool, type Tool } from "../../tool/Tool.ts";
import {
  describeFileChange,
  type FileChange,
  fileChangeView,
  mapFileChange,
} from "../shared/changeOutput.ts";
import { previewFileChange } from "../shared/changePreview.ts";
import { changeTarget, loadTextFile, writeTextFile } from "../shared/editableFile.ts";
import { withNewErrors } from "../shared/editDiagnostics.ts";
import { DEFAULT_TEXT_FORMAT } from "../shared/encoding.ts";
import { withFileLock } from "../shared/fileLock.ts";
import { checkWritePermission } from "../shared/filePermissions.ts";
import { assertReadAndUnchanged, checkReadRecordByStat } from "../shared/readState.ts";
import { writeToolMeta } from "./meta.ts";

const PROMPT = readFileSync(new URL("./prompt.md", import.meta.url), "utf8").trim();

export const writeInputSchema = z.strictObject({
  file_path: z
    .string()
    .min(1)
    .describe("The absolute path of the file to write (must be absolute, not relative)"),
  content: z.string().describe("The content to write to the file"),
});

export type WriteInput = z.infer<typeof writeInputSchema>;

function pathOf(input: WriteInput, context: ToolUseContext): string {
  return callPath(input.file_path, context.getAppState());
}

async function validateWrite(input: WriteInput, context: ToolUseContext): Promise<ToolError | undefined> {
  const path = pathOf(input, context);
  const target = await changeTarget(WriteTool as Tool, input, path, context);
  if ("problem" in target) return target.problem;
  if (!target.stats) return undefined;
  return checkReadRecordByStat(context, path, target.stats.mtimeMs, { requireFullRead: true });
}

/** A CRLF file stays CRLF when the model writes plain LF text into it. */
function fitLineEndings(content: string, lineEnding: "LF" | "CRLF"): string {
  return lineEnding === "CRLF" && !content.includes("\r\n") ? content.replace(/\n/g, "\r\n") : content;
}

async function performWrite(input: WriteInput, context: ToolUseContext): Promise<FileChange> {
  const path = pathOf(input, context);
  const signal = context.abortController.signal;
  // The check that the file is as it was read and the write are one step, also across processes.
  const done = await withFileLock(
    path,
    async (held) => {
      const problem = await validateWrite(input, context);
      if (problem) throw problem;
      const existing = await loadTextFile(path);
      if (!existing) {
        await writeTextFile(context, path, input.content, DEFAULT_TEXT_FORMAT, {
          expect: "absent",
          signal: held.signal,
        });
        return {
          change: describeFileChange("create", path, "", input.content),
          before: undefined,
          after: input.content,
        };
      }
      assertReadAndUnchanged(
        context,
        path,
        { mtimeMs: existing.stats.mtimeMs, bytes: existing.bytes },
        { requireFullRead: true },
      );
      const text = fitLineEndings(input.content, existing.format.lineEnding);
      await writeTextFile(context, path, text, existing.format, {
        expect: existing.stats,
        signal: held.signal,
      });
      return {
        change: describeFileChange("update", path, existing.text, text),
        before: existing.text,
        after: text,
      };
    },
    { signal },
  );
  // Diagnostics wait for the language server: outside the lock, so other writers need not wait too.
  return withNewErrors(context, done.change, done.before, done.after);
}

export const WriteTool: Tool<WriteInput, FileChange> = buildTool<WriteInput, FileChange>({
  ...writeToolMeta,
  searchHint: "create or overwrite a file",
  inputSchema: writeInputSchema,
  maxResultSizeChars: 100_000,
  ruleMatcher: pathRuleMatcher,
  isReadOnly: false,
  isDestructive: true,
  isConcurrencySafe: false,
  getPath: (input) => input.file_path,
  description: (input) => `Write ${input?.file_path ?? "a file"}`,
  prompt: () => PROMPT,
  toAutoClassifierInput: (input) => `${input.file_path}: ${input.content}`,
  async validateInput(input, context) {
    const problem = await validateWrite(input, context);
    return problem ? { result: false, message: problem.message, errorCode: problem.code } : { result: true };
  },
  checkPermissions: (input, context) => checkWritePermission(WriteTool, input, input.file_path, context),
  async call(input, context) {
    return { data: await performWrite(input, context) };
  },
  mapToolResultToToolResultBlockParam: mapFileChange,
  renderToolUse: (input) => ({ kind: "text", text: `Write ${input.file_path}` }),
  renderToolUsePreview: (input, context) =>
    previewFileChange(pathOf(input, context), (file) =>
      file.text === undefined ? input.content : fitLineEndings(input.content, file.lineEnding),
    ),
  renderToolResult: (output) => fileChangeView(output),
});
