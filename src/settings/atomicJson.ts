// JSON files Keel itself writes (local settings, user config): read as objects, written atomically
// (temp file in the same folder, then rename) so a crash never leaves half a file.
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { uniqueName } from "../tool/uniqueName.ts";
import { JsonSyntaxError, parseJsonWithPositions } from "./jsonPositions.ts";

/** The object in a JSON file; {} when the file is missing. Throws when it holds something else. */
export function readJsonObject(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = parseJsonWithPositions(text).value;
  } catch (error) {
    if (error instanceof JsonSyntaxError)
      throw new Error(
        `${path}:${error.position.line}:${error.position.column}: invalid JSON: ${error.message}`,
      );
    throw error;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new Error(`${path}:1:1: expected a JSON object; fix or remove the file`);
  return value as Record<string, unknown>;
}

/** The file a path names: a symlink's target (a settings file kept in a dotfiles folder), else the path. */
function writtenFile(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Writes via a temp file and rename; an existing file keeps its permission bits, and a symlink stays a
 * symlink (its target is replaced, not the link).
 */
export function atomicWriteJson(linkOrPath: string, value: unknown, newFileMode = 0o600): void {
  atomicWriteText(linkOrPath, `${JSON.stringify(value, null, 2)}\n`, newFileMode);
}

/** atomicWriteJson for text given as is (a file restored byte for byte). */
export function atomicWriteText(linkOrPath: string, text: string, newFileMode = 0o600): void {
  const path = writtenFile(linkOrPath);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let mode = newFileMode;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    // A new file.
  }
  const temp = join(dirname(path), `.${uniqueName()}.tmp`);
  try {
    writeFileSync(temp, text, { mode, flag: "wx" });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
