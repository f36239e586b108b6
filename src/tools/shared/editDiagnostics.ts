// After Write, Edit or MultiEdit: the errors the change introduced, from the file's language server
// when one is running, added to the result the model reads. Optional and time-bounded: without a
// running server this costs a map lookup, and a slow server only means no report.
import { relative, sep } from "node:path";
import { formatNewErrors, newErrorsAfterEdit } from "../../lsp/editDiagnostics.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import type { FileChange } from "./changeOutput.ts";

function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== "" && !rel.startsWith("..") ? rel.split(sep).join("/") : path;
}

/** A change made under the file's lock, with the texts the diagnostics after it compare (before: undefined for a new file). */
export interface LockedChange {
  change: FileChange;
  before: string | undefined;
  after: string;
}

/** The change with a `<new-diagnostics>` note when the edit introduced errors. `before` is undefined for a new file. */
export async function withNewErrors(
  context: ToolUseContext,
  change: FileChange,
  before: string | undefined,
  after: string,
): Promise<FileChange> {
  try {
    const found = await newErrorsAfterEdit(context, change.filePath, before, after);
    const note = formatNewErrors(displayPath(change.filePath, context.getAppState().cwd), found);
    return note ? { ...change, diagnostics: note } : change;
  } catch {
    // Diagnostics are a bonus; the edit itself succeeded.
    return change;
  }
}
