// Glob filters handed to rg as an ignore file (`--ignore-file`) instead of `--glob`. As `--glob` they
// would override .gitignore (a gitignored file a glob names would be searched); an ignore file has
// the lowest precedence, so .gitignore still wins. The same file carries the rules of the folders
// above a folder root, restated relative to it (parentIgnores.ts). It lives in the temp folder for
// one rg run (rg cannot read it from /dev/stdin: Node gives children sockets, which /dev/stdin cannot
// open).
import { randomBytes } from "node:crypto";
import { unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parentIgnoreRules } from "./parentIgnores.ts";
import type { SearchRoot } from "./searchRoot.ts";

function escapeTrailingSpaces(glob: string): string {
  return glob.replace(/ +$/, (spaces) => spaces.replaceAll(" ", "\\ "));
}

/**
 * Globs in rg's order (later wins) as ignore-file lines: a glob includes ("!glob" after "*", with
 * folders kept walkable), a "!glob" excludes.
 */
export function globsAsIgnoreFile(globs: readonly string[]): string {
  return `${globLines(globs).join("\n")}\n`;
}

function globLines(globs: readonly string[]): string[] {
  const lines = globs.some((glob) => !glob.startsWith("!")) ? ["*", "!*/"] : [];
  for (const glob of globs)
    lines.push(glob.startsWith("!") ? escapeTrailingSpaces(glob.slice(1)) : `!${escapeTrailingSpaces(glob)}`);
  return lines;
}

/**
 * Writes the ignore file (synchronously: a few lines, one system call or two) straight into the temp
 * folder, under a name no one can have taken (random, created exclusively, readable by this user only),
 * so no folder outlives a process that is killed; the file is removed after its one rg run.
 */
function writeIgnoreFile(text: string): string {
  const path = join(tmpdir(), `keel-rg-${process.pid}-${randomBytes(8).toString("hex")}.ignore`);
  writeFileSync(path, text, { flag: "wx", mode: 0o600 });
  return path;
}

async function withIgnoreFile<T>(
  lines: readonly string[],
  args: string[],
  use: (ignoreArgs: string[]) => Promise<T>,
): Promise<T> {
  if (lines.length === 0) return use(args);
  const path = writeIgnoreFile(`${lines.join("\n")}\n`);
  try {
    return await use([...args, `--ignore-file=${path}`]);
  } finally {
    try {
      unlinkSync(path);
    } catch {}
  }
}

/** Runs `use` with the path of an ignore file holding `globs`; no globs, no file. */
export function withGlobIgnoreFile<T>(
  globs: readonly string[],
  use: (ignoreFileArgs: string[]) => Promise<T>,
): Promise<T> {
  return withIgnoreFile(globLines(globs), [], use);
}

/**
 * Runs `use` with rg's ignore arguments for one search of `root`: the glob filters, and for a folder
 * the rules of the folders above it with --no-ignore-parent, where they can be restated exactly. The
 * parents' rules come last: they only ignore, and a later line wins, as .gitignore outranks the filters.
 */
export function withSearchIgnores<T>(
  root: Pick<SearchRoot, "cwd" | "isDirectory">,
  globs: readonly string[],
  use: (ignoreArgs: string[]) => Promise<T>,
): Promise<T> {
  const parents = root.isDirectory ? parentIgnoreRules(root.cwd) : undefined;
  if (parents === undefined) return withGlobIgnoreFile(globs, use);
  return withIgnoreFile([...globLines(globs), ...parents], ["--no-ignore-parent"], use);
}
