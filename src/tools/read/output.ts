// What Read returns (the shape hooks see as tool_response), and how the model is shown it.
import {
  type ImageBlock,
  type ImageMediaType,
  resultText,
  type TextBlock,
  type ToolResultBlock,
} from "../../tool/messages.ts";
import type { TextEncodingName } from "../shared/encoding.ts";

export type { ImageMediaType } from "../../tool/messages.ts";

export interface TextFileView {
  filePath: string;
  /** The lines shown, joined with "\n" (long lines already cut). */
  content: string;
  numLines: number;
  startLine: number;
  /** Known when the read reached the end of the file. */
  totalLines: number | undefined;
  hasMore: boolean;
  cutLines: number;
  encoding: TextEncodingName;
  maxLineChars: number;
}

export interface ImageView {
  filePath: string;
  base64: string;
  type: ImageMediaType;
  originalSize: number;
  dimensions: { originalWidth: number; originalHeight: number; displayWidth: number; displayHeight: number };
}

export interface NotebookCellView {
  id: string;
  cellType: string;
  source: string;
  executionCount?: number | null;
  outputs: string[];
  images: Array<{ mediaType: ImageMediaType; base64: string }>;
}

export type ReadOutput =
  | { type: "text"; file: TextFileView }
  | { type: "empty"; file: { filePath: string } }
  | { type: "past_end"; file: { filePath: string; offset: number; totalLines: number } }
  | { type: "image"; file: ImageView }
  | {
      type: "pdf";
      file: { filePath: string; totalPages: number; pages: Array<{ page: number; text: string }> };
    }
  | { type: "notebook"; file: { filePath: string; cells: NotebookCellView[] } }
  | { type: "file_unchanged"; file: { filePath: string } };

export const UNCHANGED_STUB =
  "File unchanged since last read. The content from the earlier Read result in this conversation is still current; refer to it instead of reading again.";

/** Where the line number goes (as numberLines does): right-aligned in 6 columns (wider past 999,999), then a tab. */
const NUMBER_COLUMNS = 6;

function textNotes(view: TextFileView): string {
  const notes: string[] = [];
  const last = view.startLine + view.numLines - 1;
  if (view.hasMore) {
    const of = view.totalLines === undefined ? "" : ` of ${view.totalLines}`;
    notes.push(
      `Showing lines ${view.startLine}-${last}${of}; the file has more. Use offset=${last + 1} to continue.`,
    );
  }
  if (view.cutLines > 0) {
    notes.push(
      `${view.cutLines} line${view.cutLines === 1 ? " was" : "s were"} longer than ${view.maxLineChars} characters and cut; use Grep or Bash to see them whole.`,
    );
  }
  return notes.length === 0 ? "" : `\n\n(${notes.join(" ")})`;
}

const PADDING = ["", " ", "  ", "   ", "    ", "     "];

/** Labels of the lines most reads show (a default read is lines 1-2,000): made once, ~60 KB at most. */
const KEPT_LABELS = 2_000;
const keptLabels: Array<string | undefined> = new Array(KEPT_LABELS + 1).fill(undefined);

/** A line's number as Read shows it, with the tab that follows it. */
function lineLabel(lineNumber: number): string {
  if (lineNumber <= KEPT_LABELS) {
    const kept = keptLabels[lineNumber];
    if (kept !== undefined) return kept;
  }
  const digits = String(lineNumber);
  const label = `${digits.length < NUMBER_COLUMNS ? PADDING[NUMBER_COLUMNS - digits.length] + digits : digits}\t`;
  if (lineNumber <= KEPT_LABELS) keptLabels[lineNumber] = label;
  return label;
}

/**
 * numberLines(content.split("\n"), startLine), in one pass over the text: no array of lines and no
 * intermediate string per line, for the call that every Read makes.
 */
export function numberContent(content: string, startLine: number): string {
  let numbered = "";
  for (let lineStart = 0, lineNumber = startLine; ; lineNumber++) {
    const end = content.indexOf("\n", lineStart);
    if (end === -1) return numbered + lineLabel(lineNumber) + content.slice(lineStart);
    numbered += lineLabel(lineNumber) + content.slice(lineStart, end + 1);
    lineStart = end + 1;
  }
}

/**
 * Numbered texts already made, by view: a re-read of unchanged bytes hands on the same frozen view
 * (keptAnswers.ts), whose text is then numbered once. Entries go with their views.
 */
const numberedViews = new WeakMap<TextFileView, string>();

function textResult(view: TextFileView): string {
  let text = numberedViews.get(view);
  if (text === undefined) {
    text = numberContent(view.content, view.startLine) + textNotes(view);
    if (Object.isFrozen(view)) numberedViews.set(view, text);
  }
  return text;
}

/** textResult(view).length, counted without building the text (the token limit only needs the size). */
function textResultLength(view: TextFileView): number {
  return view.content.length + labelColumns(view.startLine, view.numLines) + textNotes(view).length;
}

/**
 * The characters the labels of `count` lines from `first` take: NUMBER_COLUMNS and a tab each, one more
 * column per digit past NUMBER_COLUMNS. Counted by ranges of digit counts, not line by line.
 */
function labelColumns(first: number, count: number): number {
  let columns = count * (NUMBER_COLUMNS + 1);
  const last = first + count - 1;
  for (let digits = NUMBER_COLUMNS + 1, from = 10 ** NUMBER_COLUMNS; from <= last; digits++, from *= 10) {
    const widened = Math.min(last, from * 10 - 1) - Math.max(first, from) + 1;
    if (widened > 0) columns += widened * (digits - NUMBER_COLUMNS);
  }
  return columns;
}

function notebookBlocks(cells: NotebookCellView[]): Array<TextBlock | ImageBlock> {
  const blocks: Array<TextBlock | ImageBlock> = [];
  const text: string[] = [];
  for (const cell of cells) {
    const count =
      cell.executionCount === undefined || cell.executionCount === null
        ? ""
        : ` execution_count="${cell.executionCount}"`;
    text.push(`<cell id="${cell.id}" type="${cell.cellType}"${count}>\n${cell.source}\n</cell>`);
    if (cell.outputs.length > 0)
      text.push(`<outputs cell="${cell.id}">\n${cell.outputs.join("\n")}\n</outputs>`);
    if (cell.images.length > 0) {
      blocks.push({ type: "text", text: text.splice(0).join("\n") });
      for (const image of cell.images) {
        blocks.push({
          type: "image",
          source: { type: "base64", media_type: image.mediaType, data: image.base64 },
        });
      }
    }
  }
  if (text.length > 0) blocks.push({ type: "text", text: text.join("\n") });
  return blocks;
}

/**
 * The size in characters of what the model is shown, for the token limit. Text is counted without being
 * rendered: rendering it twice (here and for the result) cost a copy of the file per call.
 */
export function readResultChars(output: ReadOutput): number {
  if (output.type === "text") return textResultLength(output.file);
  const content = readResultContent(output);
  return typeof content === "string" ? content.length : resultText(content).length;
}

/** The text (or image blocks) the model sees for one Read result. */
export function readResultContent(output: ReadOutput): string | Array<TextBlock | ImageBlock> {
  switch (output.type) {
    case "text":
      return textResult(output.file);
    case "empty":
      return "<system-reminder>Warning: the file exists but its contents are empty.</system-reminder>";
    case "past_end":
      return `<system-reminder>Warning: the file exists but is shorter than the offset given (${output.file.offset}): it has ${output.file.totalLines} line${output.file.totalLines === 1 ? "" : "s"}. Use a smaller offset.</system-reminder>`;
    case "image":
      return [
        { type: "image", source: { type: "base64", media_type: output.file.type, data: output.file.base64 } },
      ];
    case "pdf": {
      const shown = output.file.pages.map((page) => page.page);
      const header = `PDF ${output.file.filePath}: ${output.file.totalPages} page${output.file.totalPages === 1 ? "" : "s"}; showing page${shown.length === 1 ? "" : "s"} ${shown.join(", ")}.`;
      const pages = output.file.pages.map((page) => `<page number="${page.page}">\n${page.text}\n</page>`);
      return [header, ...pages].join("\n");
    }
    case "notebook": {
      const blocks = notebookBlocks(output.file.cells);
      const only = blocks[0];
      return blocks.length === 1 && only?.type === "text" ? only.text : blocks;
    }
    case "file_unchanged":
      return UNCHANGED_STUB;
  }
}

export function mapReadResult(output: ReadOutput, toolUseId: string): ToolResultBlock {
  return { type: "tool_result", tool_use_id: toolUseId, content: readResultContent(output) };
}
