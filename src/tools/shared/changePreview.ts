// What a file change would do, computed in memory before it runs: the approval dialog shows this diff
// so the person sees what they approve. Nothing is written and no read state is touched.
import type { ToolView } from "../../tool/Tool.ts";
import { describeChange, formatHunks } from "./diff.ts";
import { loadTextFile } from "./editableFile.ts";
import type { LineEnding } from "./encoding.ts";

/** The file's text and line ending now; undefined text when it does not exist. */
export interface CurrentFile {
  text: string | undefined;
  lineEnding: LineEnding;
}

function countLines(patch: readonly string[], sign: "+" | "-"): number {
  return patch.filter((line) => line.startsWith(sign)).length;
}

function diffView(path: string, before: string, after: string, created: boolean): ToolView {
  const change = describeChange(before, after);
  if (!change.hunks) {
    return { kind: "text", text: `${created ? "Create" : "Change"} ${path} (too large to show as a diff)` };
  }
  const lines = change.hunks.flatMap((hunk) => hunk.lines);
  const added = countLines(lines, "+");
  const removed = countLines(lines, "-");
  return {
    kind: "diff",
    path,
    // The hunks alone: the dialog names the file already.
    patch: formatHunks(path, change.hunks).split("\n").slice(2).join("\n"),
    summary: created
      ? `Create ${path} (${added} line${added === 1 ? "" : "s"})`
      : `Change ${path}: ${added} line${added === 1 ? "" : "s"} added, ${removed} removed`,
  };
}

/**
 * The diff `change` would make to the file at `path`. When the file cannot be loaded or the change
 * cannot be applied as given (the call would then fail), `fallback` is shown instead, if any.
 */
export async function previewFileChange(
  path: string,
  change: (current: CurrentFile) => string,
  fallback?: () => ToolView,
): Promise<ToolView | undefined> {
  try {
    const file = await loadTextFile(path);
    const current: CurrentFile = file
      ? { text: file.text, lineEnding: file.format.lineEnding }
      : { text: undefined, lineEnding: "LF" };
    const after = change(current);
    return diffView(path, file?.text ?? "", after, file === undefined);
  } catch {
    return fallback?.();
  }
}

/** Thrown inside a preview's change when the call needs a file that is not there: nothing to show. */
export function missingFile(path: string): Error {
  return new Error(`${path} does not exist`);
}

/** The replacement itself as a diff, for when it cannot be placed in the file. */
export function replacementView(path: string, oldString: string, newString: string, note: string): ToolView {
  const change = describeChange(oldString, newString);
  return {
    kind: "diff",
    path,
    // Without "\ No newline at end of file": the strings are pieces of a file, not files.
    patch: change.hunks
      ? change.hunks
          .flatMap((hunk) => hunk.lines)
          .filter((line) => !line.startsWith("\\"))
          .join("\n")
      : newString,
    summary: `Change ${path} (${note})`,
  };
}
