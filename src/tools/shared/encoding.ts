// Text encodings of files on disk: UTF-8 with or without BOM, UTF-16 LE/BE by BOM, and bytes that are
// not valid UTF-8 kept as latin1 (one char per byte), so a round trip never mangles them.
import { isUtf8 } from "node:buffer";
import { ToolError } from "../../tool/errors.ts";

export type TextEncodingName = "utf8" | "utf16le" | "utf16be" | "latin1";
export type LineEnding = "LF" | "CRLF";

export interface TextFormat {
  encoding: TextEncodingName;
  bom: boolean;
  lineEnding: LineEnding;
}

export const DEFAULT_TEXT_FORMAT: TextFormat = { encoding: "utf8", bom: false, lineEnding: "LF" };

/** The encoding a BOM announces, and the BOM's length. */
export function detectBom(bytes: Uint8Array): { encoding: TextEncodingName; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: "utf8", length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf16le", length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf16be", length: 2 };
  return undefined;
}

/** NUL bytes in the first 8 KB (without a UTF-16 BOM) mean binary, as git and grep judge it. */
export function looksBinary(sample: Uint8Array): boolean {
  const bom = detectBom(sample);
  if (bom && bom.encoding !== "utf8") return false;
  const end = Math.min(sample.length, 8192);
  for (let i = 0; i < end; i++) if (sample[i] === 0) return true;
  return false;
}

/** The dominant line ending, judged on the first megabyte. */
export function detectLineEnding(text: string): LineEnding {
  const sample = text.length > 1 << 20 ? text.slice(0, 1 << 20) : text;
  let crlf = 0;
  let lf = 0;
  for (let i = sample.indexOf("\n"); i !== -1; i = sample.indexOf("\n", i + 1)) {
    if (i > 0 && sample.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? "CRLF" : "LF";
}

function swapBytes(bytes: Uint8Array): Buffer {
  const copy = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
  return copy.swap16();
}

/** Bytes to text, and the encoding read (a reader that will not write the text back needs no more). */
export function decodeBytes(bytes: Uint8Array): { text: string; encoding: TextEncodingName; bom: boolean } {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const bom = detectBom(buffer);
  const body = bom ? buffer.subarray(bom.length) : buffer;
  if (bom?.encoding === "utf16le") return { text: body.toString("utf16le"), encoding: "utf16le", bom: true };
  if (bom?.encoding === "utf16be")
    return { text: swapBytes(body).toString("utf16le"), encoding: "utf16be", bom: true };
  if (isUtf8(body)) return { text: body.toString("utf8"), encoding: "utf8", bom: bom !== undefined };
  return { text: body.toString("latin1"), encoding: "latin1", bom: bom !== undefined };
}

/** Bytes to text plus the format needed to write it back byte for byte. */
export function decodeText(bytes: Uint8Array): { text: string; format: TextFormat } {
  const { text, encoding, bom } = decodeBytes(bytes);
  return { text, format: { encoding, bom, lineEnding: detectLineEnding(text) } };
}

const BOMS: Record<TextEncodingName, number[]> = {
  utf8: [0xef, 0xbb, 0xbf],
  utf16le: [0xff, 0xfe],
  utf16be: [0xfe, 0xff],
  latin1: [],
};

/** Text to bytes in a file's format. Line endings are the caller's business (see convertLineEndings). */
export function encodeText(text: string, format: TextFormat): Buffer {
  let body: Buffer;
  switch (format.encoding) {
    case "utf8":
      body = Buffer.from(text, "utf8");
      break;
    case "utf16le":
      body = Buffer.from(text, "utf16le");
      break;
    case "utf16be":
      body = Buffer.from(text, "utf16le").swap16();
      break;
    case "latin1": {
      const bad = text.search(/[^\u0000-\u00ff]/);
      if (bad !== -1) {
        throw new ToolError(
          "unsupported_encoding",
          `The file is stored in a single-byte encoding (latin1) and the new text contains a character it cannot hold (${JSON.stringify(text.charAt(bad))}). Use only characters U+0000-U+00FF in this file, or convert the file to UTF-8 first.`,
        );
      }
      body = Buffer.from(text, "latin1");
      break;
    }
  }
  return format.bom ? Buffer.concat([Buffer.from(BOMS[format.encoding]), body]) : body;
}

/** Every line break in `text` (LF or CRLF) as the given ending. */
export function convertLineEndings(text: string, ending: LineEnding): string {
  return ending === "CRLF" ? text.replace(/\r?\n/g, "\r\n") : text.replace(/\r\n/g, "\n");
}

/** Lines for display: split on LF, a trailing CR dropped from each line. */
export function splitDisplayLines(text: string): string[] {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.endsWith("\r")) lines[i] = line.slice(0, -1);
  }
  return lines;
}
