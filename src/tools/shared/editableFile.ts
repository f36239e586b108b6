// Loading a text file for a change and writing it back in its own format (encoding, BOM, mode),
// atomically, then telling the session what it now holds.
import type { Stats } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import { writeFileAtomic } from "./atomicWrite.ts";
import { decodeText, encodeText, type TextFormat } from "./encoding.ts";
import { recordWrite } from "./readState.ts";
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

/** Encodes, writes atomically (parent folders created), and records the new content as read. */
export async function writeTextFile(
  context: ToolUseContext,
  path: string,
  text: string,
  format: TextFormat,
): Promise<{ bytes: Buffer; stats: Stats }> {
  const bytes = encodeText(text, format);
  await writeFileAtomic(path, bytes, { signal: context.abortController.signal });
  const stats = await stat(path);
  recordWrite(context, path, text, bytes, stats.mtimeMs);
  return { bytes, stats };
}
