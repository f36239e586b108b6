// `@path` in a prompt, as in Claude Code: while typing, the paths that fit (Tab completes the first); on
// sending, each file mentioned is read through the Read tool (a folder is listed through LS), in the
// session's pipeline with its rules, hooks and prompter, and added to the prompt. A mention that is no
// file or folder stays plain text.
import { type Dirent, readdirSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { ToolUseContext } from "../../tool/context.ts";
import { importReferences } from "../../tools/shared/fileReferences.ts";
import type { EditorState } from "./prompt/editor.ts";

/** Suggestions shown under the prompt at most, and folder entries looked at for them. */
const MAX_SUGGESTIONS = 8;
const MAX_ENTRIES_READ = 2_000;
/** Folders never suggested unless their name is typed: big, and not what a person means. */
const SKIPPED = new Set([".git", "node_modules"]);

export interface Mention {
  /** Where the `@` is, and where the word ends (the cursor). */
  start: number;
  end: number;
  /** What follows the `@`. */
  partial: string;
}

/** The `@word` the cursor is at the end of, if any. */
export function mentionAtCursor(state: EditorState): Mention | undefined {
  const before = state.text.slice(0, state.cursor);
  const match = /(?:^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return undefined;
  const after = state.text[state.cursor];
  if (after !== undefined && !/\s/.test(after)) return undefined;
  const partial = match[1] ?? "";
  return { start: state.cursor - partial.length - 1, end: state.cursor, partial };
}

function resolveTyped(typed: string, cwd: string, home: string): string {
  if (typed === "~" || typed.startsWith("~/")) return join(home, typed.slice(1));
  return isAbsolute(typed) ? typed : resolve(cwd, typed);
}

/** Paths that complete `partial` (as typed, folders ending in `/`), folders and files by name. */
export function pathSuggestions(partial: string, cwd: string, home: string): string[] {
  const slash = partial.lastIndexOf("/");
  const folderTyped = slash >= 0 ? partial.slice(0, slash + 1) : "";
  const prefix = partial.slice(slash + 1);
  let entries: Dirent[];
  try {
    entries = readdirSync(resolveTyped(folderTyped || ".", cwd, home), { withFileTypes: true }).slice(
      0,
      MAX_ENTRIES_READ,
    );
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.name.startsWith(prefix))
    .filter((entry) => prefix.startsWith(".") || !entry.name.startsWith("."))
    .filter((entry) => entry.name === prefix || !SKIPPED.has(entry.name))
    .map((entry) => ({ name: entry.name, folder: isFolder(entry, folderTyped, cwd, home) }))
    .sort((a, b) => (a.folder === b.folder ? byName(a.name, b.name) : a.folder ? -1 : 1))
    .slice(0, MAX_SUGGESTIONS)
    .map((entry) => `${folderTyped}${entry.name}${entry.folder ? "/" : ""}`);
}

/** Case-blind, then by code point: the same order on every machine. */
function byName(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function isFolder(entry: Dirent, folderTyped: string, cwd: string, home: string): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(resolveTyped(`${folderTyped}${entry.name}`, cwd, home)).isDirectory();
  } catch {
    return false;
  }
}

/** Tab: the mention at the cursor completed to the first suggestion (a file gets a space after it). */
export function completeMention(state: EditorState, suggestions: readonly string[]): EditorState | undefined {
  const mention = mentionAtCursor(state);
  const first = suggestions[0];
  if (!mention || first === undefined || first === mention.partial) return undefined;
  const inserted = `@${first}${first.endsWith("/") ? "" : " "}`;
  const text = state.text.slice(0, mention.start) + inserted + state.text.slice(mention.end);
  return { text, cursor: mention.start + inserted.length };
}

export interface Attachments {
  /** The prompt with each mentioned file's content (or folder's listing) added after it. */
  prompt: string;
  /** For the person: what was attached, and what could not be. */
  notes: string[];
}

/** Reads the files and folders a prompt mentions with `@`, through the session's pipeline. */
export async function attachMentions(
  prompt: string,
  context: ToolUseContext,
  home: string,
): Promise<Attachments> {
  const runTool = context.options.runNestedTool;
  const cwd = context.getAppState().cwd;
  const sections: string[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const reference of importReferences(prompt)) {
    const path = resolveTyped(reference, cwd, home);
    if (seen.has(path)) continue;
    seen.add(path);
    const kind = kindOf(path);
    if (!kind || !runTool) continue;
    const result = await runTool(
      kind === "file" ? { name: "Read", input: { file_path: path } } : { name: "LS", input: { path } },
      context,
    );
    if (result.refused || result.isError) {
      notes.push(`@${reference} was not attached: ${result.text.split("\n")[0]}`);
      continue;
    }
    const lines = result.text.replace(/\n+$/, "").split("\n").length;
    sections.push(
      `${kind === "file" ? "Contents of" : "Listing of"} @${reference} (${path}):\n${result.text.replace(/\n+$/, "")}`,
    );
    notes.push(`Attached @${reference} (${lines} line${lines === 1 ? "" : "s"})`);
  }
  return { prompt: sections.length > 0 ? `${prompt}\n\n${sections.join("\n\n")}` : prompt, notes };
}

function kindOf(path: string): "file" | "folder" | undefined {
  try {
    const stats = statSync(path);
    return stats.isFile() ? "file" : stats.isDirectory() ? "folder" : undefined;
  } catch {
    return undefined;
  }
}
