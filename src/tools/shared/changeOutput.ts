// The result of a file change, shared by Write, Edit, MultiEdit and NotebookEdit: what the model is
// told (a numbered snippet), and the structured diff the UI renders.
import type { StructuredPatchHunk } from "diff";
import type { ToolResultBlock } from "../../tool/messages.ts";
import type { ToolView } from "../../tool/Tool.ts";
import { type ChangedSpan, describeChange, formatHunks } from "./diff.ts";

export interface FileChange {
  type: "create" | "update";
  filePath: string;
  /** Hunks over the whole file; undefined when the change was too large to diff. */
  structuredPatch: StructuredPatchHunk[] | undefined;
  snippet: string;
  /** Matching strategy per edit ("exact" or a tolerant one), for Edit and MultiEdit. */
  strategies?: string[];
  /** What each tolerant strategy forgave, in the model's words. */
  notes?: string[];
  replacements?: number;
  /** Errors the change introduced, from the file's language server (a `<new-diagnostics>` note). */
  diagnostics?: string;
}

export function describeFileChange(
  type: "create" | "update",
  filePath: string,
  before: string,
  after: string,
  span?: ChangedSpan,
): Pick<FileChange, "type" | "filePath" | "structuredPatch" | "snippet"> {
  const change = describeChange(type === "create" ? "" : before, after, type === "create" ? undefined : span);
  return { type, filePath, structuredPatch: change.hunks, snippet: change.snippet };
}

export function fileChangeText(change: FileChange): string {
  const text = changeSummary(change);
  return change.diagnostics ? `${text}\n\n${change.diagnostics}` : text;
}

function changeSummary(change: FileChange): string {
  if (change.type === "create") return `File created successfully at: ${change.filePath}`;
  const count =
    change.replacements !== undefined && change.replacements > 1
      ? ` (${change.replacements} replacements)`
      : "";
  const notes = (change.notes ?? []).map((note) => `\nNote: ${note}`).join("");
  return `The file ${change.filePath} has been updated${count}. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${change.snippet}${notes}`;
}

export function mapFileChange(change: FileChange, toolUseId: string): ToolResultBlock {
  return { type: "tool_result", tool_use_id: toolUseId, content: fileChangeText(change) };
}

export function fileChangeView(change: FileChange): ToolView {
  if (!change.structuredPatch) return { kind: "text", text: fileChangeText(change) };
  const added = change.structuredPatch.reduce(
    (n, hunk) => n + hunk.lines.filter((l) => l.startsWith("+")).length,
    0,
  );
  const removed = change.structuredPatch.reduce(
    (n, hunk) => n + hunk.lines.filter((l) => l.startsWith("-")).length,
    0,
  );
  return {
    kind: "diff",
    path: change.filePath,
    patch: formatHunks(change.filePath, change.structuredPatch),
    summary: `${change.type === "create" ? "Created" : "Updated"} ${change.filePath}: ${added} line${added === 1 ? "" : "s"} added, ${removed} removed`,
  };
}

/** The note told to the model when a tolerant strategy found old_string. */
export function strategyNote(strategy: string, forgiven: string, label = "old_string"): string | undefined {
  return strategy === "exact"
    ? undefined
    : `${label} did not match exactly; it was matched by the "${strategy}" strategy, ignoring ${forgiven}.`;
}
