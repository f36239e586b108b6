// Jupyter notebooks (nbformat 4): parsing, cell ids, sources, and writing back in the file's own layout.
import { ToolError } from "../../tool/errors.ts";

export type NotebookSource = string | string[];

export interface NotebookOutput {
  output_type: string;
  text?: NotebookSource;
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
  name?: string;
  [key: string]: unknown;
}

export interface NotebookCell {
  id?: string;
  cell_type: string;
  source: NotebookSource;
  metadata?: Record<string, unknown>;
  outputs?: NotebookOutput[];
  execution_count?: number | null;
  [key: string]: unknown;
}

export interface Notebook {
  cells: NotebookCell[];
  metadata?: Record<string, unknown>;
  nbformat?: number;
  nbformat_minor?: number;
  [key: string]: unknown;
}

/** How the file was laid out, to write it back the same way. */
export interface NotebookLayout {
  indent: string;
  trailingNewline: boolean;
}

export function parseNotebook(text: string, path: string): Notebook {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ToolError(
      "unsupported_file",
      `${path} is not valid JSON (${(error as Error).message}); it cannot be read as a notebook. Read it as text with Read to see what is wrong.`,
    );
  }
  if (!value || typeof value !== "object" || !Array.isArray((value as Notebook).cells)) {
    throw new ToolError("unsupported_file", `${path} has no "cells" list; it is not an nbformat 4 notebook.`);
  }
  return value as Notebook;
}

export function detectNotebookLayout(text: string): NotebookLayout {
  const match = /^\{\r?\n([ \t]+)"/.exec(text);
  return { indent: match?.[1] ?? (text.startsWith("{\n") ? " " : ""), trailingNewline: text.endsWith("\n") };
}

export function serializeNotebook(notebook: Notebook, layout: NotebookLayout): string {
  const json = JSON.stringify(notebook, null, layout.indent === "" ? undefined : layout.indent);
  return layout.trailingNewline ? `${json}\n` : json;
}

export function sourceText(source: NotebookSource | undefined): string {
  if (source === undefined) return "";
  return Array.isArray(source) ? source.join("") : source;
}

/** Source as nbformat writes it: a list of lines, each but the last keeping its "\n". */
export function sourceLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  return lines.map((line, i) => (i < lines.length - 1 ? `${line}\n` : line)).filter((line) => line !== "");
}

/** A cell's id: its own `id`, or `cell-N` (0-based) for notebooks written before nbformat 4.5. */
export function cellId(cell: NotebookCell, index: number): string {
  return typeof cell.id === "string" && cell.id !== "" ? cell.id : `cell-${index}`;
}

export function findCellIndex(notebook: Notebook, id: string): number {
  const byId = notebook.cells.findIndex((cell, index) => cellId(cell, index) === id);
  if (byId !== -1) return byId;
  const numbered = /^cell-(\d+)$/.exec(id) ?? /^(\d+)$/.exec(id);
  if (numbered) {
    const index = Number(numbered[1]);
    if (index < notebook.cells.length) return index;
  }
  return -1;
}

/** nbformat 4.5 and later require cell ids. */
export function notebookNeedsCellIds(notebook: Notebook): boolean {
  return (
    (notebook.nbformat ?? 4) > 4 || ((notebook.nbformat ?? 4) === 4 && (notebook.nbformat_minor ?? 0) >= 5)
  );
}

export function newCellId(notebook: Notebook): string {
  const taken = new Set(notebook.cells.map((cell, index) => cellId(cell, index)));
  for (;;) {
    const id = Math.random().toString(16).slice(2, 10).padEnd(8, "0");
    if (!taken.has(id)) return id;
  }
}

/** The text of one output: stream text, text/plain data, or an error with its traceback. */
export function outputText(output: NotebookOutput): string {
  if (output.output_type === "stream") return sourceText(output.text);
  if (output.output_type === "error") {
    const traceback = (output.traceback ?? []).join("\n").replace(/\u001b\[[0-9;]*m/g, "");
    return `${output.ename ?? "Error"}: ${output.evalue ?? ""}${traceback ? `\n${traceback}` : ""}`;
  }
  const data = output.data ?? {};
  const plain = data["text/plain"];
  if (typeof plain === "string" || Array.isArray(plain)) return sourceText(plain as NotebookSource);
  const kinds = Object.keys(data).filter((kind) => !kind.startsWith("image/"));
  return kinds.length ? `[${kinds.join(", ")} output]` : "";
}
