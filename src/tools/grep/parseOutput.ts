// rg's output for a folder search, regrouped by file in path order so that pages are stable between
// calls (rg prints files in whatever order its threads finish). rg runs with `--heading --null`: each
// file's output is one block, "path NUL first line", its other lines, then a blank line; and with line
// numbers always, whose separator (":" for a match, "-" for context) tells the two apart. No output
// line is ever empty ("12:" at least), so a blank line can only end a block.
import { StringDecoder } from "node:string_decoder";
import { compareStrings, joinRelative } from "../search-shared/newestFirst.ts";
import { inOrder } from "./inOrder.ts";

const LINE_NUMBER = /^(\d+)([:-])/;

function splitLines(stdout: Buffer): string[] {
  const lines = stdout.toString("utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

function stripCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/** One output line as the model sees it: `abs:12:text` (match), `abs-12-text` (context); numbers optional. */
function formatLine(absolutePath: string, rest: string, showLineNumbers: boolean): string {
  if (rest === "--") return rest;
  const number = LINE_NUMBER.exec(rest);
  if (!number) return `${absolutePath}:${rest}`;
  const separator = number[2];
  return showLineNumbers
    ? `${absolutePath}${separator}${rest}`
    : `${absolutePath}${separator}${rest.slice(number[0].length)}`;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

export interface ContentPage {
  /** The lines of the page asked for, formatted. */
  lines: string[];
  /** Output lines in all, "--" separators included. */
  totalLines: number;
  /** Files with output lines. */
  files: number;
}

export interface PageOptions {
  showLineNumbers: boolean;
  hasContext: boolean;
  offset: number;
  limit: number | undefined;
}

/** One file's output, "path NUL line\nline...", and its line count. */
interface Block {
  path: string;
  text: string;
  lines: number;
}

/**
 * Content-mode output of a folder search, taken in as rg writes it so the parsing overlaps the search.
 * The work is per block (one search for the blank line, one line count), not per formatted line: only
 * the page asked for is ever formatted.
 */
export class ContentCollector {
  readonly #decoder = new StringDecoder("utf8");
  readonly #blocks: Block[] = [];
  /** The block still being written: its text so far. */
  #open: string[] = [];
  /** A trailing newline held back: with the next chunk's first character it may make the blank line. */
  #heldNewline = false;

  push(chunk: Buffer): void {
    this.#consume(this.#decoder.write(chunk));
  }

  pushText(text: string): void {
    this.#consume(text);
  }

  finish(): void {
    this.#consume(this.#decoder.end());
    this.#heldNewline = false;
    this.#close(this.#open.join("").replace(/\n+$/, ""));
  }

  #consume(text: string): void {
    const data = this.#heldNewline ? `\n${text}` : text;
    let position = 0;
    for (let blank = data.indexOf("\n\n"); blank !== -1; blank = data.indexOf("\n\n", position)) {
      this.#open.push(data.slice(position, blank));
      this.#close(this.#open.join(""));
      position = blank + 2;
    }
    this.#heldNewline = data.endsWith("\n") && position < data.length;
    const tail = data.slice(position, this.#heldNewline ? -1 : undefined);
    if (tail) this.#open.push(tail);
  }

  #close(text: string): void {
    this.#open = [];
    const nul = text.indexOf("\0");
    if (nul === -1) return;
    this.#blocks.push({ path: text.slice(0, nul), text, lines: countNewlines(text) + 1 });
  }

  /** Files in path order, "--" between files when there is context; only lines [offset, offset+limit) formatted. */
  page(root: string, options: PageOptions): ContentPage {
    const blocks = this.#blocks;
    const between = options.hasContext ? 1 : 0;
    const totalLines =
      blocks.reduce((sum, block) => sum + block.lines, 0) + Math.max(0, blocks.length - 1) * between;
    const end =
      options.limit === undefined ? totalLines : Math.min(totalLines, options.offset + options.limit);
    const lines: string[] = [];
    let index = 0;
    let first = true;
    // Only the blocks up to the page's end are put in order (a heap), not all of them.
    for (const block of inOrder(blocks, (a, b) => compareStrings(a.path, b.path))) {
      if (index >= end) break;
      if (!first && between) {
        if (index >= options.offset) lines.push("--");
        index++;
      }
      first = false;
      if (index + block.lines <= options.offset) {
        index += block.lines;
        continue;
      }
      const absolutePath = joinRelative(root, block.path);
      const blockLines = block.text.slice(block.path.length + 1).split("\n");
      for (const raw of blockLines) {
        if (index >= end) break;
        if (index++ < options.offset) continue;
        lines.push(formatLine(absolutePath, stripCarriageReturn(raw), options.showLineNumbers));
      }
    }
    return { lines, totalLines, files: blocks.length };
  }
}

/** The same, for output already in hand. */
export function folderContentPage(text: string, root: string, options: PageOptions): ContentPage {
  const collector = new ContentCollector();
  collector.pushText(text);
  collector.finish();
  return collector.page(root, options);
}

/** Content-mode output of a one-file search: rg's lines as they are, one page of them. */
export function fileContentPage(text: string, offset: number, limit: number | undefined): ContentPage {
  const all = text.split("\n");
  if (all.at(-1) === "") all.pop();
  const page = all.slice(offset, limit === undefined ? undefined : offset + limit).map(stripCarriageReturn);
  return { lines: page, totalLines: all.length, files: all.length > 0 ? 1 : 0 };
}

export interface FileCount {
  path: string;
  count: number;
}

/** `--count --null` output: one `path NUL count` line per file, in rg's order. */
export function parseCountOutput(stdout: Buffer, root: string): FileCount[] {
  const counts: FileCount[] = [];
  for (const line of splitLines(stdout)) {
    const nul = line.indexOf("\0");
    if (nul === -1) continue;
    const count = Number(line.slice(nul + 1));
    if (Number.isFinite(count)) counts.push({ path: joinRelative(root, line.slice(0, nul)), count });
  }
  return counts;
}

/** Entries [offset, offset+limit) of the counts in path order, without sorting all of them. */
export function countPage(
  counts: readonly FileCount[],
  offset: number,
  limit: number | undefined,
): FileCount[] {
  const page: FileCount[] = [];
  const end = limit === undefined ? counts.length : offset + limit;
  let index = 0;
  for (const entry of inOrder(counts, (a, b) => compareStrings(a.path, b.path))) {
    if (index >= end) break;
    if (index++ >= offset) page.push(entry);
  }
  return page;
}
