// Text files: small ones are read whole (and hashed, so later edits can be checked against them);
// large ones are streamed, so a range deep inside a huge file costs bounded memory.
import { isUtf8 } from "node:buffer";
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { open, readFile } from "node:fs/promises";
import type { FileReadRecord } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import {
  decodeBytes,
  detectBom,
  looksBinary,
  splitDisplayLines,
  type TextEncodingName,
} from "../shared/encoding.ts";
import { cutLine, readLineRange } from "../shared/lineReader.ts";
import { sha256 } from "../shared/readState.ts";
import { keepAnswer, keptAnswer } from "./keptAnswers.ts";
import type { ReadOutput } from "./output.ts";

/** Files up to this size are read whole; larger ones are streamed. */
export const FULL_READ_MAX_BYTES = 8 << 20;
/**
 * Files up to this size are read synchronously in one go: four system calls of a few microseconds,
 * where fs/promises would make several round trips through the thread pool for the same bytes.
 */
export const SMALL_READ_MAX_BYTES = 256 << 10;
export const DEFAULT_LINE_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;

export interface TextReadRequest {
  offset: number;
  limit: number;
  signal?: AbortSignal;
  /** Tests lower it to exercise the streaming path on small files. */
  fullReadMaxBytes?: number;
  /** Tests lower it to exercise the asynchronous whole read on small files. */
  smallReadMaxBytes?: number;
}

export interface TextReadResult {
  output: ReadOutput;
  record: FileReadRecord;
}

function binaryError(path: string): ToolError {
  return new ToolError(
    "unsupported_file",
    `${path} is a binary file; Read shows text, images (png, jpeg, gif, webp), PDFs and notebooks only. Use Bash (for example \`file\` or \`xxd | head\`) to inspect it.`,
  );
}

interface ShownRange {
  /** The lines shown, joined with "\n". */
  content: string;
  numLines: number;
  cutLines: number;
  hasMore: boolean;
  totalLines: number | undefined;
}

function linesRange(
  lines: string[],
  range: { cutLines: number; hasMore: boolean; totalLines: number | undefined },
): ShownRange {
  const { cutLines, hasMore, totalLines } = range;
  return { content: lines.join("\n"), numLines: lines.length, cutLines, hasMore, totalLines };
}

function rangeOutput(
  path: string,
  request: TextReadRequest,
  encoding: TextEncodingName,
  range: ShownRange,
): ReadOutput {
  if (range.numLines === 0) {
    const totalLines = range.totalLines ?? 0;
    if (totalLines === 0) return { type: "empty", file: { filePath: path } };
    return { type: "past_end", file: { filePath: path, offset: request.offset, totalLines } };
  }
  return {
    type: "text",
    file: {
      filePath: path,
      content: range.content,
      numLines: range.numLines,
      startLine: request.offset,
      totalLines: range.totalLines,
      hasMore: range.hasMore,
      cutLines: range.cutLines,
      encoding,
      maxLineChars: MAX_LINE_CHARS,
    },
  };
}

/**
 * The bytes of a small regular file, read synchronously; undefined when it has grown past `maxBytes`
 * since it was stat'ed. O_NONBLOCK and the fstat: a FIFO or device swapped in is refused, never waited on.
 */
function readSmallFileSync(path: string, maxBytes: number): { bytes: Buffer; stats: Stats } | undefined {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      throw new ToolError(
        "unsupported_file",
        `${path} is no longer a regular file; Read only reads regular files.`,
      );
    if (stats.size > maxBytes) return undefined;
    const bytes = Buffer.allocUnsafe(stats.size);
    let filled = 0;
    while (filled < bytes.length) {
      const read = readSync(fd, bytes, filled, bytes.length - filled, null);
      if (read === 0) break;
      filled += read;
    }
    return { bytes: filled === bytes.length ? bytes : bytes.subarray(0, filled), stats };
  } finally {
    closeSync(fd);
  }
}

async function readBytes(
  path: string,
  stats: Stats,
  request: TextReadRequest,
): Promise<{ bytes: Buffer; stats: Stats }> {
  const smallMax = request.smallReadMaxBytes ?? SMALL_READ_MAX_BYTES;
  if (stats.size <= smallMax && !request.signal?.aborted) {
    const small = readSmallFileSync(path, smallMax);
    if (small) return small;
  }
  return { bytes: await readFile(path, { signal: request.signal }), stats };
}

/**
 * The view of a file shown whole and as it is: from line 1, every line within the limit, none too long,
 * no carriage returns. The text is then the view itself, with no splitting and joining of lines.
 */
function wholeTextAsIs(text: string, request: TextReadRequest): ShownRange | undefined {
  if (request.offset !== 1 || text === "" || text.includes("\r")) return undefined;
  let numLines = 0;
  for (let lineStart = 0; lineStart < text.length; ) {
    const end = text.indexOf("\n", lineStart);
    const lineEnd = end === -1 ? text.length : end;
    if (lineEnd - lineStart > MAX_LINE_CHARS || ++numLines > request.limit) return undefined;
    if (end === -1) break;
    lineStart = end + 1;
  }
  const content = text.endsWith("\n") ? text.slice(0, -1) : text;
  return { content, numLines, cutLines: 0, hasMore: false, totalLines: numLines };
}

/** Any range of the text: split into display lines, the range picked, long lines cut. */
function textRange(text: string, request: TextReadRequest): ShownRange {
  const all = splitDisplayLines(text);
  if (all.length > 0 && all.at(-1) === "" && text.endsWith("\n")) all.pop();
  const start = request.offset - 1;
  const lines = start === 0 && request.limit >= all.length ? all : all.slice(start, start + request.limit);
  let cutLines = 0;
  for (let i = 0; i < lines.length; i++) {
    // Most lines are short: only long ones pay for cutting.
    if ((lines[i] as string).length <= MAX_LINE_CHARS) continue;
    lines[i] = cutLine(lines[i] as string, MAX_LINE_CHARS).text;
    cutLines++;
  }
  const hasMore = start + lines.length < all.length;
  return linesRange(text === "" ? [] : lines, {
    cutLines,
    hasMore,
    totalLines: text === "" ? 0 : all.length,
  });
}

async function readWhole(path: string, statted: Stats, request: TextReadRequest): Promise<TextReadResult> {
  // The fast path's own fstat describes exactly the bytes read: its mtime goes into the record.
  const { bytes, stats } = await readBytes(path, statted, request);
  const { offset, limit } = request;
  const kept = keptAnswer(path, bytes);
  if (kept && kept.offset === offset && kept.limit === limit) {
    const { text: content, hash, isPartialView, output } = kept;
    return { output, record: { content, hash, mtimeMs: stats.mtimeMs, isPartialView, offset, limit } };
  }
  if (!kept && looksBinary(bytes)) throw binaryError(path);
  const { text, encoding } = kept ?? decodeBytes(bytes);
  const range = wholeTextAsIs(text, request) ?? textRange(text, request);
  const output = rangeOutput(path, request, encoding, range);
  // Hashed only when the bytes differ from the kept answer's (compared above, not judged by size or mtime).
  const hash = kept?.hash ?? sha256(bytes);
  const isPartialView = offset > 1 || range.hasMore || range.cutLines > 0;
  keepAnswer(path, { bytes, text, encoding, hash, offset, limit, isPartialView, output });
  return { output, record: { content: text, hash, mtimeMs: stats.mtimeMs, isPartialView, offset, limit } };
}

/** The encoding of a large file, judged from its first 64 KB. */
async function sniffEncoding(path: string): Promise<{ encoding: TextEncodingName; skipBytes: number }> {
  const handle = await open(path, "r");
  try {
    const sample = Buffer.alloc(65536);
    const { bytesRead } = await handle.read(sample, 0, sample.length, 0);
    const head = sample.subarray(0, bytesRead);
    if (looksBinary(head)) throw binaryError(path);
    const bom = detectBom(head);
    if (bom) return { encoding: bom.encoding, skipBytes: bom.length };
    // A multi-byte character may be cut at the sample's end: judge without the last 3 bytes.
    const judged = bytesRead === sample.length ? head.subarray(0, Math.max(0, bytesRead - 3)) : head;
    return { encoding: isUtf8(judged) ? "utf8" : "latin1", skipBytes: 0 };
  } finally {
    await handle.close();
  }
}

async function readStreamed(path: string, stats: Stats, request: TextReadRequest): Promise<TextReadResult> {
  const { encoding, skipBytes } = await sniffEncoding(path);
  const range = await readLineRange(path, {
    offset: request.offset,
    limit: request.limit,
    maxLineChars: MAX_LINE_CHARS,
    encoding,
    skipBytes,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const output = rangeOutput(path, request, encoding, linesRange(range.lines, range));
  // Never hashed whole: later edits are checked by mtime alone.
  const record: FileReadRecord = {
    content: range.lines.join("\n"),
    hash: "",
    mtimeMs: stats.mtimeMs,
    isPartialView: request.offset > 1 || range.hasMore || range.cutLines > 0,
    offset: request.offset,
    limit: request.limit,
  };
  return { output, record };
}

export async function readTextFile(
  path: string,
  stats: Stats,
  request: TextReadRequest,
): Promise<TextReadResult> {
  const fullReadMax = request.fullReadMaxBytes ?? FULL_READ_MAX_BYTES;
  return stats.size <= fullReadMax ? readWhole(path, stats, request) : readStreamed(path, stats, request);
}
