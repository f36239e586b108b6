// What the session has read (context.readFileState), and the rule built on it: a file is changed only
// after it was read, and only if it has not changed on disk since.
import { resolveSymlinks } from "../../permissions/paths.ts";
import type { FileReadRecord, ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import { createSha256 } from "../../tool/lazyCrypto.ts";

/** sha256 of a file's bytes; "" in a record means the file was never hashed whole (streamed, or large). */
export function sha256(bytes: Uint8Array): string {
  return createSha256().update(bytes).digest("hex");
}

/** The record for a file, under the name given or the name its symlinks resolve to. */
export function getReadRecord(context: ToolUseContext, absolutePath: string): FileReadRecord | undefined {
  const direct = context.readFileState.get(absolutePath);
  if (direct) return direct;
  const resolved = resolveSymlinks(absolutePath);
  return resolved === absolutePath ? undefined : context.readFileState.get(resolved);
}

/** Stores a record under both names of a symlinked file, so either name counts as read. */
export function recordFileState(context: ToolUseContext, absolutePath: string, record: FileReadRecord): void {
  context.readFileState.set(absolutePath, record);
  const resolved = resolveSymlinks(absolutePath);
  if (resolved !== absolutePath) context.readFileState.set(resolved, record);
}

/**
 * Forgets what was read of a file found changed, under both its names: the next Read then reads it
 * afresh instead of answering "unchanged" (which it judges by mtime, and two writes within one clock
 * tick can leave the mtime as it was).
 */
export function forgetFileState(context: ToolUseContext, absolutePath: string): void {
  context.readFileState.delete(absolutePath);
  const resolved = resolveSymlinks(absolutePath);
  if (resolved !== absolutePath) context.readFileState.delete(resolved);
}

/** Files larger than this are tracked by mtime alone (as Read does for the files it streams). */
export const HASHED_MAX_BYTES = 8 << 20;

/** sha256 over the pieces of a file, or "" when the file is too large to be worth hashing. */
export function hashPieces(pieces: readonly Uint8Array[]): string {
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  if (total > HASHED_MAX_BYTES) return "";
  const hash = createSha256();
  for (const piece of pieces) hash.update(piece);
  return hash.digest("hex");
}

/** After a write the session knows the whole new content (no offset: a later Read is not a duplicate). */
export function recordWrite(
  context: ToolUseContext,
  absolutePath: string,
  text: string,
  pieces: readonly Uint8Array[],
  mtimeMs: number,
): void {
  recordFileState(context, absolutePath, {
    content: text,
    hash: hashPieces(pieces),
    mtimeMs,
    isPartialView: false,
  });
}

export interface FreshnessOptions {
  /** Overwriting the whole file (Write) needs a full read; an edit may follow a partial one. */
  requireFullRead: boolean;
}

function notRead(absolutePath: string, options: FreshnessOptions, partial: boolean): ToolError {
  if (partial) {
    return new ToolError(
      "not_read",
      `${absolutePath} was only read in part (offset/limit). Read the whole file before overwriting it, or use Edit to change part of it.`,
    );
  }
  return new ToolError(
    "not_read",
    `File has not been read yet: ${absolutePath}. Read it first with the Read tool${options.requireFullRead ? " (the whole file)" : ""}, then retry.`,
  );
}

function changed(absolutePath: string): ToolError {
  return new ToolError(
    "changed_since_read",
    `${absolutePath} has been modified since it was last read (by the user or another program), so what was read is stale. Read it again to see the current content, then retry the change.`,
  );
}

/**
 * Throws unless the file was read (fully, when required) and is unchanged: the same content hash (a
 * `touch` is not a change), or, for a file read without one (streamed), the same mtime. The hash decides
 * whenever there is one: two writes within one clock tick can leave the mtime as it was. A changed
 * file's record is forgotten, so the Read that should follow reads it whole.
 */
export function assertReadAndUnchanged(
  context: ToolUseContext,
  absolutePath: string,
  current: { mtimeMs: number; bytes: Uint8Array },
  options: FreshnessOptions,
): FileReadRecord {
  const record = getReadRecord(context, absolutePath);
  if (!record) throw notRead(absolutePath, options, false);
  if (options.requireFullRead && record.isPartialView) throw notRead(absolutePath, options, true);
  if (record.hash !== "" ? record.hash === sha256(current.bytes) : record.mtimeMs === current.mtimeMs)
    return record;
  forgetFileState(context, absolutePath);
  throw changed(absolutePath);
}

/**
 * The same check from a stat alone, for validateInput: it can tell "not read" for sure, and "changed"
 * only when no hash can vouch for the file (streamed partial reads); call() decides the rest with the bytes.
 */
export function checkReadRecordByStat(
  context: ToolUseContext,
  absolutePath: string,
  mtimeMs: number,
  options: FreshnessOptions,
): ToolError | undefined {
  const record = getReadRecord(context, absolutePath);
  if (!record) return notRead(absolutePath, options, false);
  if (options.requireFullRead && record.isPartialView) return notRead(absolutePath, options, true);
  if (record.mtimeMs !== mtimeMs && record.hash === "") return changed(absolutePath);
  return undefined;
}
