// rg's output for a folder search, regrouped by file in path order so that pages are stable between
// calls (rg prints files in whatever order its threads finish). rg runs with `--null`, so a path ends
// at a NUL byte whatever characters it holds, and with line numbers always, whose separator (":" for
// a match, "-" for context) is the only way to tell the two apart.
import { StringDecoder } from "node:string_decoder";
import { compareStrings, joinRelative } from "../search-shared/newestFirst.ts";

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
  const number = LINE_NUMBER.exec(rest);
  if (!number) return `${absolutePath}:${rest}`;
  const separator = number[2];
  return showLineNumbers
    ? `${absolutePath}${separator}${rest}`
    : `${absolutePath}${separator}${rest.slice(number[0].length)}`;
}

export interface ContentPage {
  /** The lines of the page asked for, formatted. */
  lines: string[];
  /** Output lines in all, "--" separators included. */
  totalLines: number;
  /** Files with output lines. */
  files: number;
}

/** One file's run of output: its lines (as text pieces joined by newlines), counted with inner "--" separators. */
interface Block {
  path: string;
  pieces: string[];
  lines: number;
}

/**
 * Content-mode output of a folder search, taken in as rg writes it so the parsing overlaps the search.
 * rg writes each file's output in one piece, so a block ends where a line starts with another path;
 * lines are kept as slices of the decoded chunks, and only the page asked for is ever formatted.
 */
export class ContentCollector {
  readonly #decoder = new StringDecoder("utf8");
  readonly #blocks: Block[] = [];
  #current: Block | undefined;
  #rest = "";
  #separatorPending = false;

  push(chunk: Buffer): void {
    this.#consume(this.#decoder.write(chunk), false);
  }

  pushText(text: string): void {
    this.#consume(text, false);
  }

  finish(): void {
    this.#consume(this.#decoder.end(), true);
  }

  #consume(text: string, final: boolean): void {
    const data = this.#rest + text;
    const limit = final ? data.length : data.lastIndexOf("\n") + 1;
    this.#rest = data.slice(limit);
    // The current block's lines in this chunk: data[pieceStart, pieceEnd).
    let pieceStart = -1;
    let pieceEnd = 0;
    for (let position = 0; position < limit; ) {
      let newline = data.indexOf("\n", position);
      if (newline === -1 || newline > limit) newline = limit;
      if (newline - position === 2 && data.startsWith("--", position)) this.#separatorPending = true;
      else {
        const nul = data.indexOf("\0", position);
        const current = this.#current;
        const samePath =
          current !== undefined &&
          nul === position + current.path.length &&
          data.startsWith(current.path, position);
        if (current && (samePath || nul === -1 || nul > newline)) {
          current.lines += this.#separatorPending ? 2 : 1;
          if (pieceStart === -1) {
            // The block goes on from an earlier chunk; a separator right at the boundary is not in any slice.
            if (this.#separatorPending) current.pieces.push("--");
            pieceStart = position;
          }
          pieceEnd = newline;
        } else if (nul !== -1) {
          if (current && pieceStart !== -1) current.pieces.push(data.slice(pieceStart, pieceEnd));
          this.#current = { path: data.slice(position, nul), pieces: [], lines: 1 };
          this.#blocks.push(this.#current);
          pieceStart = position;
          pieceEnd = newline;
        }
        this.#separatorPending = false;
      }
      position = newline + 1;
    }
    if (this.#current && pieceStart !== -1) this.#current.pieces.push(data.slice(pieceStart, pieceEnd));
  }

  /** Files in path order, "--" between files when there is context; only lines [offset, offset+limit) formatted. */
  page(
    root: string,
    options: { showLineNumbers: boolean; hasContext: boolean; offset: number; limit: number | undefined },
  ): ContentPage {
    const blocks = this.#blocks.sort((a, b) => compareStrings(a.path, b.path));
    const between = options.hasContext ? 1 : 0;
    const totalLines =
      blocks.reduce((sum, block) => sum + block.lines, 0) + Math.max(0, blocks.length - 1) * between;
    const end =
      options.limit === undefined ? totalLines : Math.min(totalLines, options.offset + options.limit);
    const lines: string[] = [];
    let index = 0;
    for (let b = 0; b < blocks.length && index < end; b++) {
      const block = blocks[b]!;
      if (b > 0 && between) {
        if (index >= options.offset) lines.push("--");
        index++;
      }
      if (index + block.lines <= options.offset) {
        index += block.lines;
        continue;
      }
      const absolutePath = joinRelative(root, block.path);
      for (const raw of block.pieces.join("\n").split("\n")) {
        if (index >= end) break;
        if (index++ < options.offset) continue;
        const line = stripCarriageReturn(raw);
        const nul = line.indexOf("\0");
        lines.push(
          nul === -1 ? line : formatLine(absolutePath, line.slice(nul + 1), options.showLineNumbers),
        );
      }
    }
    return { lines, totalLines, files: blocks.length };
  }
}

/** The same, for output already in hand. */
export function folderContentPage(
  text: string,
  root: string,
  options: { showLineNumbers: boolean; hasContext: boolean; offset: number; limit: number | undefined },
): ContentPage {
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

/** `--count --null` output: one `path NUL count` line per file, returned in path order. */
export function parseCountOutput(stdout: Buffer, root: string): FileCount[] {
  const counts: FileCount[] = [];
  for (const line of splitLines(stdout)) {
    const nul = line.indexOf("\0");
    if (nul === -1) continue;
    const count = Number(line.slice(nul + 1));
    if (Number.isFinite(count)) counts.push({ path: joinRelative(root, line.slice(0, nul)), count });
  }
  return counts.sort((a, b) => compareStrings(a.path, b.path));
}
