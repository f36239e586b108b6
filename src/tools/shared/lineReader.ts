// Reading a range of lines from a file of any size in bounded memory: lines before the range are
// counted, never decoded or kept; lines in it are cut at a character limit while they are read.
import { type FileHandle, open } from "node:fs/promises";
import type { TextEncodingName } from "./encoding.ts";
import { createNewlineCounter } from "./newlineCounter.ts";

export const LINE_CUT_MARKER = "… [line cut at %d characters]";

export interface LineRangeRequest {
  /** 1-based first line. */
  offset: number;
  limit: number;
  maxLineChars: number;
  encoding: TextEncodingName;
  /** Bytes of BOM to skip at the start of the file. */
  skipBytes: number;
  signal?: AbortSignal;
  chunkSize?: number;
  /** Use the plain indexOf counter even where SIMD is available (tests compare both). */
  forceFallback?: boolean;
}

export interface LineRange {
  lines: string[];
  /** How many of `lines` were cut at maxLineChars. */
  cutLines: number;
  /** True when the file has lines after the range. */
  hasMore: boolean;
  /** The file's line count, known when the read reached the end of the file. */
  totalLines: number | undefined;
}

export function cutLine(line: string, maxChars: number): { text: string; cut: boolean } {
  if (line.length <= maxChars) return { text: line, cut: false };
  return { text: line.slice(0, maxChars) + LINE_CUT_MARKER.replace("%d", String(maxChars)), cut: true };
}

/** Keeps the lines of the range, each cut at maxLineChars while it is assembled. */
class LineCollector {
  readonly lines: string[] = [];
  cutLines = 0;
  #parts: Array<Uint8Array | string> = [];
  #size = 0;
  #overflow = false;
  readonly #keepUnits: number;
  readonly #request: LineRangeRequest;

  constructor(request: LineRangeRequest, unitsPerChar: number) {
    this.#request = request;
    this.#keepUnits = request.maxLineChars * unitsPerChar + 4;
  }

  get full(): boolean {
    return this.lines.length >= this.#request.limit;
  }

  get pending(): boolean {
    return this.#size > 0 || this.#overflow;
  }

  append(piece: Uint8Array | string): void {
    if (piece.length === 0) return;
    const room = this.#keepUnits - this.#size;
    if (room <= 0) {
      this.#overflow = true;
      return;
    }
    const end = Math.min(piece.length, room);
    // Bytes are copied (Buffer.from): the read buffer is reused for the next chunk.
    const kept = typeof piece === "string" ? piece.slice(0, end) : Buffer.from(piece.subarray(0, end));
    if (piece.length > room) this.#overflow = true;
    this.#parts.push(kept);
    this.#size += kept.length;
  }

  endLine(): void {
    let text =
      typeof this.#parts[0] === "string"
        ? (this.#parts as string[]).join("")
        : Buffer.concat(this.#parts as Uint8Array[]).toString(
            this.#request.encoding === "latin1" ? "latin1" : "utf8",
          );
    if (text.endsWith("\r") && !this.#overflow) text = text.slice(0, -1);
    const cut = cutLine(text, this.#request.maxLineChars);
    const isCut = cut.cut || this.#overflow;
    this.lines.push(
      isCut && !cut.cut
        ? text.slice(0, this.#request.maxLineChars) +
            LINE_CUT_MARKER.replace("%d", String(this.#request.maxLineChars))
        : cut.text,
    );
    if (isCut) this.cutLines++;
    this.#parts = [];
    this.#size = 0;
    this.#overflow = false;
  }
}

async function readBytesRange(handle: FileHandle, request: LineRangeRequest): Promise<LineRange> {
  const counter = createNewlineCounter(request.chunkSize ?? 1 << 20, {
    forceFallback: request.forceFallback,
  });
  const buffer = counter.buffer;
  const collector = new LineCollector(request, request.encoding === "latin1" ? 1 : 4);
  let position = request.skipBytes;
  let line = 1;
  let lastByte: number | undefined;
  for (;;) {
    request.signal?.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    lastByte = buffer[bytesRead - 1];
    let start = 0;
    if (line < request.offset) {
      const newlines = counter.count(bytesRead);
      if (line + newlines < request.offset) {
        line += newlines;
        continue;
      }
      while (line < request.offset) {
        start = buffer.indexOf(10, start) + 1;
        line++;
      }
    }
    while (start < bytesRead) {
      const newline = buffer.indexOf(10, start);
      if (newline === -1 || newline >= bytesRead) {
        collector.append(buffer.subarray(start, bytesRead));
        break;
      }
      collector.append(buffer.subarray(start, newline));
      collector.endLine();
      line++;
      start = newline + 1;
      if (collector.full) {
        const hasMore = start < bytesRead || (await handle.read(buffer, 0, 1, position)).bytesRead > 0;
        return {
          lines: collector.lines,
          cutLines: collector.cutLines,
          hasMore,
          totalLines: hasMore ? undefined : line - 1,
        };
      }
    }
  }
  if (collector.pending) {
    collector.endLine();
    line++;
  } else if (line < request.offset && lastByte !== undefined && lastByte !== 10) {
    line++; // The last line had no newline and lay before the range.
  }
  return { lines: collector.lines, cutLines: collector.cutLines, hasMore: false, totalLines: line - 1 };
}

async function readDecodedRange(handle: FileHandle, request: LineRangeRequest): Promise<LineRange> {
  const decoder = new TextDecoder(request.encoding === "utf16be" ? "utf-16be" : "utf-16le");
  const buffer = Buffer.allocUnsafe(request.chunkSize ?? 1 << 20);
  const collector = new LineCollector(request, 1);
  let position = request.skipBytes;
  let line = 1;
  let pendingEmpty = true;
  for (;;) {
    request.signal?.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    position += bytesRead;
    const text = decoder.decode(buffer.subarray(0, bytesRead), { stream: bytesRead > 0 });
    let start = 0;
    while (start < text.length) {
      const newline = text.indexOf("\n", start);
      if (newline === -1) {
        if (line >= request.offset) collector.append(text.slice(start));
        pendingEmpty = false;
        break;
      }
      if (line >= request.offset) {
        collector.append(text.slice(start, newline));
        collector.endLine();
        if (collector.full) {
          const rest = newline + 1 < text.length || (await handle.read(buffer, 0, 2, position)).bytesRead > 0;
          return {
            lines: collector.lines,
            cutLines: collector.cutLines,
            hasMore: rest,
            totalLines: rest ? undefined : line,
          };
        }
      }
      line++;
      pendingEmpty = true;
      start = newline + 1;
    }
    if (bytesRead === 0) break;
  }
  if (!pendingEmpty) {
    if (line >= request.offset) collector.endLine();
    line++;
  }
  return { lines: collector.lines, cutLines: collector.cutLines, hasMore: false, totalLines: line - 1 };
}

/** Lines [offset, offset + limit) of a file, streamed. */
export async function readLineRange(path: string, request: LineRangeRequest): Promise<LineRange> {
  const handle = await open(path, "r");
  try {
    return request.encoding === "utf16le" || request.encoding === "utf16be"
      ? await readDecodedRange(handle, request)
      : await readBytesRange(handle, request);
  } finally {
    await handle.close();
  }
}
