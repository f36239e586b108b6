// Loading a text file for a change and writing it back in its own format (encoding, BOM, mode),
// atomically, then telling the session what it now holds.
import type { Stats } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import type { Tool } from "../../tool/Tool.ts";
import { type FileIdentity, readOnlyProblem, writeFileAtomic } from "./atomicWrite.ts";
import { decodeText, encodeText, type TextFormat } from "./encoding.ts";
import { denyRuleError } from "./filePermissions.ts";
import { forgetFileState, recordWrite } from "./readState.ts";
import { didYouMean } from "./similarNames.ts";

/** Larger files are not edited in memory (a JavaScript string holds at most about 512 M characters). */
export const MAX_EDITABLE_BYTES = 256 << 20;

export interface LoadedTextFile {
  path: string;
  bytes: Buffer;
  text: string;
  format: TextFormat;
  stats: Stats;
}

export async function statIfExists(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/** Refusals that depend only on what kind of file is there. */
export function assertEditableKind(path: string, stats: Stats): void {
  if (stats.isDirectory()) throw new ToolError("is_directory", `${path} is a directory, not a file.`);
  if (!stats.isFile())
    throw new ToolError(
      "unsupported_file",
      `${path} is not a regular file (a device, FIFO or socket); it cannot be edited.`,
    );
  if (stats.size > MAX_EDITABLE_BYTES) {
    throw new ToolError(
      "too_large",
      `${path} is ${stats.size} bytes, over the ${MAX_EDITABLE_BYTES}-byte limit for editing. Use Bash (sed, or a script) to change a file this large.`,
    );
  }
}

/**
 * What Edit, MultiEdit and Write check first, in this order: the engine's deny rule (before the path is
 * touched, so a denied file's existence is not told), then what kind of file is there and whether this
 * user may write it. The file's stats (undefined when there is none), or the refusal.
 */
export async function changeTarget(
  tool: Tool,
  input: unknown,
  path: string,
  context: ToolUseContext,
): Promise<{ stats: Stats | undefined } | { problem: ToolError }> {
  const denied = await denyRuleError(tool, input, context, "write");
  if (denied) return { problem: denied };
  const stats = await statIfExists(path);
  if (!stats) return { stats };
  try {
    assertEditableKind(path, stats);
  } catch (error) {
    return { problem: error as ToolError };
  }
  const readOnly = await readOnlyProblem(path, stats);
  return readOnly ? { problem: readOnly } : { stats };
}

/** The file as text with its format, or undefined when it does not exist. */
export async function loadTextFile(path: string): Promise<LoadedTextFile | undefined> {
  const stats = await statIfExists(path);
  if (!stats) return undefined;
  assertEditableKind(path, stats);
  const bytes = await readFile(path);
  const { text, format } = decodeText(bytes);
  return { path, bytes, text, format, stats };
}

export async function missingFileError(path: string, advice: string): Promise<ToolError> {
  return new ToolError("file_not_found", `File does not exist: ${path}.${await didYouMean(path)} ${advice}`);
}

/** A replaced span of a loaded file's text (index and length in the old text). */
export interface TextSplice {
  index: number;
  length: number;
  replacement: string;
}

function isLowSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The new file as pieces of the old bytes around the encoded replacements, so a small edit of a large
 * file does not re-encode all of it. Undefined where that is not safe (UTF-16, a span splitting a
 * surrogate pair): the caller encodes the whole text.
 */
export function spliceBytes(file: LoadedTextFile, splices: readonly TextSplice[]): Uint8Array[] | undefined {
  const { encoding, bom } = file.format;
  if (encoding !== "utf8" && encoding !== "latin1") return undefined;
  const text = file.text;
  const start = bom ? 3 : 0;
  const oneBytePerChar = encoding === "latin1" || file.bytes.length - start === text.length;
  const byteLength = (from: number, to: number) =>
    oneBytePerChar ? to - from : Buffer.byteLength(text.slice(from, to), "utf8");
  const pieces: Uint8Array[] = [];
  let copiedFrom = 0;
  let charCursor = 0;
  let byteCursor = start;
  for (const splice of splices) {
    const end = splice.index + splice.length;
    if (isLowSurrogate(text, splice.index) || isLowSurrogate(text, end)) return undefined;
    const byteStart = byteCursor + byteLength(charCursor, splice.index);
    const byteEnd = byteStart + byteLength(splice.index, end);
    pieces.push(
      file.bytes.subarray(copiedFrom, byteStart),
      encodeText(splice.replacement, { ...file.format, bom: false }),
    );
    copiedFrom = byteEnd;
    charCursor = end;
    byteCursor = byteEnd;
  }
  pieces.push(file.bytes.subarray(copiedFrom));
  return pieces;
}

export interface TextWrite {
  /** The loaded file whose unchanged bytes are copied as they are, with the spans that replace the rest. */
  splices?: { file: LoadedTextFile; sites: readonly TextSplice[] };
  /** The version being replaced: the loaded file's stats, or "absent" for a new file (see writeFileAtomic). */
  expect: FileIdentity | "absent";
  /** The file lock's signal (the call's, and aborted if the lock is lost). */
  signal: AbortSignal;
}

/**
 * Writes the new text atomically (parent folders created) in the file's format and records it as read.
 * With `splices` of a loaded file, unchanged bytes are copied as they are instead of re-encoded.
 */
export async function writeTextFile(
  context: ToolUseContext,
  path: string,
  text: string,
  format: TextFormat,
  write: TextWrite,
): Promise<{ stats: Stats }> {
  const pieces = (write.splices && spliceBytes(write.splices.file, write.splices.sites)) ?? [
    encodeText(text, format),
  ];
  try {
    await writeFileAtomic(path, pieces, { signal: write.signal, expect: write.expect });
  } catch (error) {
    // Changed by another program while this change was written: the next Read must read it afresh.
    if (error instanceof ToolError && error.code === "changed_since_read") forgetFileState(context, path);
    throw error;
  }
  const stats = await stat(path);
  recordWrite(context, path, text, pieces, stats.mtimeMs);
  return { stats };
}
