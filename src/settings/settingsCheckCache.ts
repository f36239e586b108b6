// Settings files a Keel build has already checked. A settings text is checked against the schema (and
// searched for unknown keys) by every process that reads it: ~75 zod schemas built and a parse, ~5 ms of
// a one-call process (`keel check`, `keel hook`) whose files rarely change between calls. The outcome of
// a passed check is kept, keyed by the file's path and its whole text, in the CLI's compile-cache folder
// (bin/compileCache.js): private to this user, one per build, removed with its build. A text that differs
// by one byte is checked again; a failed check is never kept. The checks that depend on the caller (rule
// names, hook matchers) run every time. Without that folder (Keel as a library, the tests) nothing is kept.
import { createRequire } from "node:module";
import { uniqueName } from "../tool/uniqueName.ts";
import type { SettingsFile } from "./schema.ts";

// Built-ins through require(): an ES import of node:fs builds a facade that loads fs's streams.
const require = createRequire(import.meta.url);
const { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } =
  require("node:fs") as typeof import("node:fs");
const { join } = require("node:path") as typeof import("node:path");
const { isDeepStrictEqual } = require("node:util") as typeof import("node:util");

/** A build keeps this many checked texts; writing one more removes the oldest. */
export const MAX_REMEMBERED_CHECKS = 64;
/**
 * Texts up to this many characters are kept (real settings are a few KB; a file may hold 1 MiB): the
 * folder stays under ~10 MB. A longer text is checked by every process that reads it.
 */
export const MAX_REMEMBERED_TEXT = 64 * 1024;
const FOLDER = "settings-checks";

export interface PassedCheck {
  /** The file's settings as the schema gave them back. */
  settings: SettingsFile;
  /** The check's warnings (unknown keys and hook events), each naming the file. */
  warnings: string[];
}

interface Entry extends PassedCheck {
  path: string;
  text: string;
}

/** This build's folder of checked texts, or undefined when the CLI's compile cache is off. */
export function rememberedChecksFolder(): string | undefined {
  const { getCompileCacheDir } = require("node:module") as typeof import("node:module");
  const cache = getCompileCacheDir?.();
  return cache ? join(cache, FOLDER) : undefined;
}

/** The kept outcome of this exact text at this path, or undefined (never kept, or unreadable). */
export function recallCheck(folder: string, path: string, text: string): PassedCheck | undefined {
  let entry: Partial<Entry>;
  try {
    entry = JSON.parse(readFileSync(join(folder, entryName(path, text)), "utf8")) as Partial<Entry>;
  } catch {
    return undefined;
  }
  if (entry.path !== path || entry.text !== text) return undefined;
  if (entry.settings === null || typeof entry.settings !== "object" || !Array.isArray(entry.warnings))
    return undefined;
  return { settings: entry.settings as SettingsFile, warnings: entry.warnings as string[] };
}

/**
 * Keeps a passed check. Only settings that JSON gives back unchanged are kept (a recalled check is read
 * from JSON). Best effort: a folder that cannot be written only means the next process checks again.
 */
export function rememberCheck(folder: string, path: string, text: string, passed: PassedCheck): void {
  if (text.length > MAX_REMEMBERED_TEXT) return;
  const json = JSON.stringify({ path, text, settings: passed.settings, warnings: passed.warnings });
  if (!isDeepStrictEqual(JSON.parse(json).settings, passed.settings)) return;
  try {
    // Inside the compile-cache folder, which bin/compileCache.js made private to this user.
    mkdirSync(folder, { mode: 0o700, recursive: true });
    const file = join(folder, entryName(path, text));
    const temporary = `${file}.${uniqueName()}.tmp`;
    writeFileSync(temporary, json, { mode: 0o600 });
    renameSync(temporary, file);
    keepNewest(folder, MAX_REMEMBERED_CHECKS);
  } catch {}
}

/** Removes all but the `count` most recently written entries (and temporary files left by a crash). */
function keepNewest(folder: string, count: number): void {
  const names = readdirSync(folder);
  if (names.length <= count) return;
  const dated = names.map((name) => {
    try {
      return { name, written: lstatSync(join(folder, name)).mtimeMs };
    } catch {
      return { name, written: 0 };
    }
  });
  dated.sort((a, b) => b.written - a.written);
  for (const { name } of dated.slice(count)) rmSync(join(folder, name), { force: true });
}

/** A file name for the path and text: FNV-1a, 64 bits in two halves. Equal names are told apart inside. */
function entryName(path: string, text: string): string {
  let low = 0x811c9dc5;
  let high = 0x050c5d1f;
  const key = `${path}\u0000${text}`;
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    low = Math.imul(low ^ code, 0x01000193) >>> 0;
    high = Math.imul(high ^ code ^ (low >>> 7), 0x01000193) >>> 0;
  }
  return `${high.toString(16).padStart(8, "0")}${low.toString(16).padStart(8, "0")}.json`;
}
