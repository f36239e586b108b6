// What a model sees of a command's output: the output lives whole in a file on disk; only a bounded
// head and tail window is ever read back, ANSI-stripped, binary summarized, capped with a note.
// Reads are synchronous: at most two windows of a local file, cheaper than thread-pool round trips.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import stripAnsi from "strip-ansi";
import { groupThousands } from "../../tool/format.ts";

/** Bash's model-facing cap: 30,000 characters (the rest stays in the output file). */
export const BASH_MAX_OUTPUT_CHARS = 30_000;

/** Room kept under the cap for the truncation note and the tool's own notes. */
const NOTE_ROOM_CHARS = 1_000;
/** Bytes read from each end of a large output: bounded memory whatever the output size. */
const WINDOW_BYTES = 256 * 1024;
const BINARY_SAMPLE_BYTES = 8 * 1024;
/** First read of a whole output: reused, since the summary's text is made from it at once. */
const FIRST_READ_BYTES = 64 * 1024;
const firstReadBuffer = Buffer.allocUnsafe(FIRST_READ_BYTES);

export interface OutputSummary {
  /** Model-facing text: ANSI stripped, at most `maxChars` characters including the truncation note. */
  text: string;
  /** Bytes in the summarized range. */
  totalBytes: number;
  truncated: boolean;
  binary: boolean;
}

export interface OutputRange {
  /** First byte of the range (default 0). */
  start?: number;
  /** End of the range, exclusive (default: the file's current size). */
  end?: number;
}

function readBytes(fd: number, start: number, length: number): Buffer {
  if (length <= 0) return Buffer.alloc(0);
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const read = readSync(fd, buffer, filled, length - filled, start + filled);
    if (read === 0) break;
    filled += read;
  }
  return buffer.subarray(0, filled);
}

/** NUL bytes or many non-text control bytes mean binary; valid UTF-8 text with ANSI codes is text. */
export function looksBinary(sample: Buffer): boolean {
  if (sample.length === 0) return false;
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    // tab, LF, CR, ESC (ANSI), backspace and form feed are normal in terminal output
    if (byte < 32 && byte !== 9 && byte !== 10 && byte !== 13 && byte !== 27 && byte !== 8 && byte !== 12)
      control++;
  }
  if (control / sample.length > 0.1) return true;
  const decoded = new TextDecoder("utf-8").decode(sample);
  let replacement = 0;
  for (const char of decoded) if (char === "\uFFFD") replacement++;
  // A window may cut one multi-byte character at each end; more than that is not UTF-8 text.
  return replacement > 4 && replacement / decoded.length > 0.05;
}

/** Text for the model: escape sequences removed, carriage-return progress redraws collapsed. */
export function cleanTerminalText(text: string): string {
  const stripped = stripAnsi(text);
  if (!stripped.includes("\r")) return stripped;
  // Linear on purpose: a regex with a leading [^\n]* backtracks quadratically on long lines.
  return stripped
    .split("\n")
    .map((line) => {
      let end = line.length;
      while (end > 0 && line[end - 1] === "\r") end--;
      const visible = line.slice(0, end);
      return visible.slice(visible.lastIndexOf("\r") + 1);
    })
    .join("\n");
}

function formatBytes(bytes: number): string {
  return `${groupThousands(bytes)} bytes`;
}

/** Cut the head at a line end and the tail at a line start when one is near, so lines stay whole. */
function trimHead(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.slice(0, chars);
  const lastNewline = cut.lastIndexOf("\n");
  return lastNewline > chars * 0.8 ? cut.slice(0, lastNewline + 1) : cut;
}

function trimTail(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.slice(text.length - chars);
  const firstNewline = cut.indexOf("\n");
  return firstNewline !== -1 && firstNewline < chars * 0.2 ? cut.slice(firstNewline + 1) : cut;
}

function truncationNote(totalBytes: number, shownBytes: number, savedPath: string | undefined): string {
  const cut = Math.max(0, totalBytes - shownBytes);
  const where = savedPath
    ? ` Full output (${formatBytes(totalBytes)}) saved to ${savedPath}; read it with offsets or grep it.`
    : "";
  return `\n\n[... output truncated: about ${formatBytes(cut)} cut from the middle, first and last parts shown.${where} ...]\n\n`;
}

/**
 * Summarizes a byte range of an output file for the model. Reads at most two windows of
 * WINDOW_BYTES, so a 200 MB output costs the same memory as a 600 KB one.
 */
export async function summarizeOutputFile(
  path: string,
  options: { maxChars?: number; range?: OutputRange; savedPath?: string } = {},
): Promise<OutputSummary> {
  const fd = openSync(path, "r");
  try {
    return summarizeOpenFile(fd, options);
  } finally {
    closeSync(fd);
  }
}

/** summarizeOutputFile for a file the caller has open for reading (and closes). */
export function summarizeOpenFile(
  fd: number,
  options: { maxChars?: number; range?: OutputRange; savedPath?: string },
): OutputSummary {
  if (options.range === undefined) {
    // One read answers most commands, whose whole output is shorter than this: no size asked first.
    const read = readSync(fd, firstReadBuffer, 0, FIRST_READ_BYTES, 0);
    if (read < FIRST_READ_BYTES) {
      const whole = firstReadBuffer.subarray(0, read);
      return summarizeWindows(whole, whole, read, true, options);
    }
  }
  const start = options.range?.start ?? 0;
  const end = options.range?.end ?? fstatSync(fd).size;
  const totalBytes = Math.max(0, end - start);
  const whole = totalBytes <= 2 * WINDOW_BYTES;
  const head = readBytes(fd, start, whole ? totalBytes : WINDOW_BYTES);
  const tail = whole ? head : readBytes(fd, end - WINDOW_BYTES, WINDOW_BYTES);
  return summarizeWindows(head, tail, totalBytes, whole, options);
}

/** The summary of an output from its head and tail windows (the same bytes when `whole`). */
function summarizeWindows(
  head: Buffer,
  tail: Buffer,
  totalBytes: number,
  whole: boolean,
  options: { maxChars?: number; savedPath?: string },
): OutputSummary {
  if (totalBytes === 0) return { text: "", totalBytes, truncated: false, binary: false };
  const maxChars = options.maxChars ?? BASH_MAX_OUTPUT_CHARS;
  const binary =
    looksBinary(head.subarray(0, BINARY_SAMPLE_BYTES)) || looksBinary(tail.subarray(-BINARY_SAMPLE_BYTES));
  if (binary) {
    const where = options.savedPath ? `; saved to ${options.savedPath}` : "";
    return {
      text: `[binary output: ${formatBytes(totalBytes)}${where}]`,
      totalBytes,
      truncated: true,
      binary,
    };
  }

  const headText = cleanTerminalText(head.toString("utf8"));
  if (whole && headText.length <= maxChars) return { text: headText, totalBytes, truncated: false, binary };

  const budget = Math.max(200, maxChars - NOTE_ROOM_CHARS);
  const headPart = trimHead(headText, Math.floor(budget / 2));
  const tailText = whole ? headText : cleanTerminalText(tail.toString("utf8"));
  const tailPart = trimTail(tailText, budget - headPart.length);
  const shownBytes = Buffer.byteLength(headPart) + Buffer.byteLength(tailPart);
  const text = headPart + truncationNote(totalBytes, shownBytes, options.savedPath) + tailPart;
  return { text, totalBytes, truncated: true, binary };
}

/** The last few non-empty lines of an output file (a path, or a descriptor open for reading), for progress reports. */
export async function readLatestLines(file: string | number, maxLines = 5, maxBytes = 4096): Promise<string> {
  let bytes: Buffer;
  let size: number;
  try {
    const fd = typeof file === "number" ? file : openSync(file, "r");
    try {
      size = fstatSync(fd).size;
      bytes = readBytes(fd, Math.max(0, size - maxBytes), Math.min(size, maxBytes));
    } finally {
      if (typeof file !== "number") closeSync(fd);
    }
  } catch {
    return "";
  }
  if (looksBinary(bytes)) return `[binary output: ${formatBytes(size)} so far]`;
  const lines = cleanTerminalText(bytes.toString("utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "");
  return lines.slice(-maxLines).join("\n");
}
