// What a write changed: a structured diff for the UI and a numbered snippet for the model. Only the
// changed region (common prefix and suffix trimmed) is diffed, so a small edit in a huge file stays cheap.
import { type StructuredPatchHunk, structuredPatch } from "diff";
import { splitDisplayLines } from "./encoding.ts";
import { cutLine } from "./lineReader.ts";

export const DIFF_CONTEXT_LINES = 3;
const SNIPPET_CONTEXT_LINES = 4;
const SNIPPET_MAX_LINES = 40;
/**
 * A snippet line is cut as Read cuts long lines, and the whole snippet kept well under a result's budget:
 * a one-line 100 MB file gives a few KB of result, not a second copy of the file saved to disk.
 */
const SNIPPET_MAX_LINE_CHARS = 2_000;
const SNIPPET_MAX_CHARS = 16_000;
/** Beyond this many characters of changed region the structured diff is left out (the write still happens). */
const MAX_DIFF_REGION_CHARS = 4 << 20;

export interface ChangeDescription {
  /** Hunks with line numbers of the whole file; undefined when the change was too large to diff. */
  hunks: StructuredPatchHunk[] | undefined;
  /** First changed line in the new content (1-based). */
  firstLine: number;
  /** `cat -n` style lines of the new content around the change. */
  snippet: string;
}

function commonPrefixLength(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  const step = 4096;
  let i = 0;
  while (i + step <= max && a.slice(i, i + step) === b.slice(i, i + step)) i += step;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function commonSuffixLength(a: string, b: string, limit: number): number {
  const max = Math.min(a.length, b.length) - limit;
  const step = 4096;
  let n = 0;
  while (
    n + step <= max &&
    a.slice(a.length - n - step, a.length - n) === b.slice(b.length - n - step, b.length - n)
  )
    n += step;
  while (n < max && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
  return n;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

function lineStart(text: string, index: number): number {
  return index <= 0 ? 0 : text.lastIndexOf("\n", index - 1) + 1;
}

/** Start of the line `lines` lines above the one holding `index`. */
function backLines(text: string, index: number, lines: number): number {
  let start = lineStart(text, index);
  for (let k = 0; k < lines && start > 0; k++) start = lineStart(text, start - 1);
  return start;
}

/** End (after the newline) of the line `lines` lines below the one holding `index`. */
function forwardLines(text: string, index: number, lines: number): number {
  let end = index;
  for (let k = 0; k <= lines; k++) {
    const next = text.indexOf("\n", end);
    if (next === -1) return text.length;
    end = next + 1;
  }
  return end;
}

/** Numbered lines in the `cat -n` style of Read: number right-aligned in 6 columns, then a tab. */
export function numberLines(lines: readonly string[], firstLine: number): string {
  return lines.map((line, i) => `${String(firstLine + i).padStart(6)}\t${line}`).join("\n");
}

function snippetOf(text: string, firstLine: number): string {
  const lines = splitDisplayLines(text.endsWith("\n") ? text.slice(0, -1) : text);
  const shown = Math.min(lines.length, SNIPPET_MAX_LINES);
  const maxChars = Math.min(SNIPPET_MAX_LINE_CHARS, Math.floor(SNIPPET_MAX_CHARS / Math.max(1, shown)));
  const numbered = (from: number, to: number) =>
    numberLines(
      lines.slice(from, to).map((line) => cutLine(line, maxChars).text),
      firstLine + from,
    );
  if (lines.length <= SNIPPET_MAX_LINES) return numbered(0, lines.length);
  const tailStart = lines.length - 10;
  return `${numbered(0, SNIPPET_MAX_LINES - 10)}\n   ...\t(${tailStart - (SNIPPET_MAX_LINES - 10)} more lines)\n${numbered(tailStart, lines.length)}`;
}

/** Lengths of the unchanged head and tail of a change, when the caller knows them (an edit does). */
export interface ChangedSpan {
  prefix: number;
  suffix: number;
}

/** Describes the change from `before` to `after`; an empty `before` means the file is new. */
export function describeChange(before: string, after: string, span?: ChangedSpan): ChangeDescription {
  const prefix = span?.prefix ?? commonPrefixLength(before, after);
  const suffix = span?.suffix ?? commonSuffixLength(before, after, prefix);
  const oldChangeEnd = before.length - suffix;
  const newChangeEnd = after.length - suffix;

  const diffStart = backLines(before, prefix, DIFF_CONTEXT_LINES);
  const snippetStart = backLines(after, Math.min(prefix, after.length), SNIPPET_CONTEXT_LINES);
  // Both starts lie in the common head: one count from the top of the file serves all line numbers.
  const lower = Math.min(diffStart, snippetStart);
  const base = countNewlines(before, 0, lower);
  const firstLine = base + countNewlines(before, lower, prefix) + 1;
  const diffStartLine = base + countNewlines(before, lower, diffStart) + 1;
  const snippetFirstLine = base + countNewlines(after, lower, snippetStart) + 1;

  // A change that ends with a newline ends on that line, not on the next one.
  const lastChanged = (text: string, end: number) =>
    end > prefix && text.charCodeAt(end - 1) === 10 ? end - 1 : Math.max(end, prefix);
  const oldDiffEnd = forwardLines(before, lastChanged(before, oldChangeEnd), DIFF_CONTEXT_LINES);
  const newDiffEnd = forwardLines(after, lastChanged(after, newChangeEnd), DIFF_CONTEXT_LINES);
  let hunks: StructuredPatchHunk[] | undefined;
  if (oldDiffEnd - diffStart + (newDiffEnd - diffStart) <= MAX_DIFF_REGION_CHARS) {
    const patch = structuredPatch(
      "before",
      "after",
      before.slice(diffStart, oldDiffEnd),
      after.slice(diffStart, newDiffEnd),
      undefined,
      undefined,
      { context: DIFF_CONTEXT_LINES, stripTrailingCr: true },
    );
    hunks = patch.hunks.map((hunk) => ({
      ...hunk,
      oldStart: hunk.oldStart + diffStartLine - 1,
      newStart: hunk.newStart + diffStartLine - 1,
    }));
  }
  const snippetEnd = forwardLines(after, lastChanged(after, newChangeEnd), SNIPPET_CONTEXT_LINES);
  return { hunks, firstLine, snippet: snippetOf(after.slice(snippetStart, snippetEnd), snippetFirstLine) };
}

/** A unified-diff text of hunks, for views and logs. */
export function formatHunks(path: string, hunks: readonly StructuredPatchHunk[]): string {
  const body = hunks.map(
    (hunk) =>
      `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@\n${hunk.lines.join("\n")}`,
  );
  return [`--- ${path}`, `+++ ${path}`, ...body].join("\n");
}
