// Memory files: the instructions a project and its user keep for agents. CLAUDE.md, AGENTS.md and
// .keel/KEEL.md from the user's folder, then from the repository root down to the cwd (closer files
// come later and so weigh more), each followed by the files it imports with `@path`.
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { importReferences } from "../tools/shared/fileReferences.ts";

export { importReferences };

export interface MemoryFile {
  path: string;
  content: string;
  scope: "user" | "project";
  /** The file that imported this one. */
  importedFrom?: string;
}

const PROJECT_NAMES = [
  "CLAUDE.md",
  "AGENTS.md",
  join(".claude", "CLAUDE.md"),
  join(".keel", "KEEL.md"),
  "CLAUDE.local.md",
];
const USER_NAMES = [join(".claude", "CLAUDE.md"), join(".keel", "KEEL.md"), join(".keel", "AGENTS.md")];
const MAX_IMPORT_DEPTH = 5;
const MAX_FILE_CHARS = 40_000;

/** The folders from the repository root (the nearest with .git) down to cwd; just cwd outside a repo. */
export function projectFolders(cwd: string): string[] {
  const start = resolve(cwd);
  const chain: string[] = [];
  let current = start;
  for (;;) {
    chain.push(current);
    if (existsSync(join(current, ".git"))) return chain.reverse();
    const parent = dirname(current);
    if (parent === current) return [start];
    current = parent;
  }
}

function readText(path: string): string | undefined {
  try {
    const stats = statSync(path);
    if (!stats.isFile()) return undefined;
    const content = readFileSync(path, "utf8");
    if (content.includes("\u0000")) return undefined;
    return content.length > MAX_FILE_CHARS ? `${content.slice(0, MAX_FILE_CHARS)}\n[truncated]` : content;
  } catch {
    return undefined;
  }
}

function resolveReference(reference: string, fromFile: string, home: string): string {
  if (reference.startsWith("~/")) return join(home, reference.slice(2));
  return isAbsolute(reference) ? reference : resolve(dirname(fromFile), reference);
}

function identity(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

export function loadMemoryFiles(cwd: string, home: string): MemoryFile[] {
  const files: MemoryFile[] = [];
  const seen = new Set<string>();
  const add = (path: string, scope: MemoryFile["scope"], depth: number, importedFrom?: string) => {
    const id = identity(path);
    if (seen.has(id)) return;
    const content = readText(path);
    if (content === undefined) return;
    seen.add(id);
    files.push({ path, content, scope, ...(importedFrom ? { importedFrom } : {}) });
    if (depth >= MAX_IMPORT_DEPTH) return;
    for (const reference of importReferences(content))
      add(resolveReference(reference, path, home), scope, depth + 1, path);
  };
  for (const name of USER_NAMES) add(join(home, name), "user", 0);
  for (const folder of projectFolders(cwd))
    for (const name of PROJECT_NAMES) add(join(folder, name), "project", 0);
  return files;
}

export function formatMemory(files: readonly MemoryFile[]): string | undefined {
  if (files.length === 0) return undefined;
  const sections = files.map((file) => {
    const origin = file.importedFrom
      ? ` (imported by ${file.importedFrom})`
      : file.scope === "user"
        ? " (the user's own instructions)"
        : "";
    return `Contents of ${file.path}${origin}:\n\n${file.content.trim()}`;
  });
  return [
    "# Instructions from memory files",
    "These instructions come from the user and the project. Follow them; they take precedence over the defaults above.",
    ...sections,
  ].join("\n\n");
}
