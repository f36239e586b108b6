// Glob filters handed to rg as an ignore file (`--ignore-file`) instead of `--glob`. As `--glob` they
// would override .gitignore (a gitignored file a glob names would be searched); an ignore file has
// the lowest precedence, so .gitignore still wins. The file lives in a temp folder for one rg run
// (rg cannot read it from /dev/stdin: Node gives children sockets, which /dev/stdin cannot open).
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function escapeTrailingSpaces(glob: string): string {
  return glob.replace(/ +$/, (spaces) => spaces.replaceAll(" ", "\\ "));
}

/**
 * Globs in rg's order (later wins) as ignore-file lines: a glob includes ("!glob" after "*", with
 * folders kept walkable), a "!glob" excludes.
 */
export function globsAsIgnoreFile(globs: readonly string[]): string {
  const lines = globs.some((glob) => !glob.startsWith("!")) ? ["*", "!*/"] : [];
  for (const glob of globs)
    lines.push(glob.startsWith("!") ? escapeTrailingSpaces(glob.slice(1)) : `!${escapeTrailingSpaces(glob)}`);
  return `${lines.join("\n")}\n`;
}

let folder: string | undefined;
let counter = 0;

function tempFolder(): string {
  if (folder === undefined) {
    const path = mkdtempSync(join(tmpdir(), "keel-rg-"));
    process.once("exit", () => rmSync(path, { recursive: true, force: true }));
    folder = path;
  }
  return folder;
}

/** Writes the ignore file (synchronously: a few lines, one system call or two). */
function writeIgnoreFile(text: string): string {
  for (let attempt = 0; ; attempt++) {
    const path = join(tempFolder(), `globs-${process.pid}-${++counter}.ignore`);
    try {
      writeFileSync(path, text);
      return path;
    } catch (error) {
      // The folder was removed under us (a temp cleaner): make a new one, once.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || attempt > 0) throw error;
      folder = undefined;
    }
  }
}

/** Runs `use` with the path of an ignore file holding `globs`; no globs, no file. */
export async function withGlobIgnoreFile<T>(
  globs: readonly string[],
  use: (ignoreFileArgs: string[]) => Promise<T>,
): Promise<T> {
  if (globs.length === 0) return use([]);
  const path = writeIgnoreFile(globsAsIgnoreFile(globs));
  try {
    return await use([`--ignore-file=${path}`]);
  } finally {
    try {
      unlinkSync(path);
    } catch {}
  }
}
