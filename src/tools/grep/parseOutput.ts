// rg's output for a folder search, regrouped by file in path order so that pages are stable between
// calls (rg prints files in whatever order its threads finish). rg runs with `--null`, so a path ends
// at a NUL byte whatever characters it holds, and with line numbers always, whose separator (":" for
// a match, "-" for context) is the only way to tell the two apart.
import { compareStrings, joinRelative } from "../search-shared/newestFirst.ts";

const LINE_NUMBER = /^(\d+)([:-])/;

function splitLines(stdout: Buffer): string[] {
  const text = stdout.toString("utf8");
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

function stripCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/** One output line as the model sees it: `abs:12:text` (match), `abs-12-text` (context); numbers optional. */
function formatLine(absolutePath: string, rest: string, showLineNumbers: boolean): string {
  const number = LINE_NUMBER.exec(rest);
  if (!number) return `${absolutePath}:${rest}`;
  const separator = number[2];
  return showLineNumbers
    ? `${absolutePath}${separator}${rest}`
    : `${absolutePath}${separator}${rest.slice(number[0].length)}`;
}

/** Content-mode lines of a folder search, grouped per file in path order; "--" between context groups. */
export function parseContentOutput(
  stdout: Buffer,
  root: string,
  options: { showLineNumbers: boolean; hasContext: boolean },
): { lines: string[]; files: number } {
  const groups = new Map<string, string[]>();
  let current: string[] | undefined;
  let currentPath: string | undefined;
  let separatorPending = false;
  for (const raw of splitLines(stdout)) {
    const line = stripCarriageReturn(raw);
    const nul = line.indexOf("\0");
    if (nul === -1) {
      if (line === "--") separatorPending = true;
      else current?.push(line);
      continue;
    }
    const relativePath = line.slice(0, nul);
    if (relativePath !== currentPath) {
      currentPath = relativePath;
      const existing = groups.get(relativePath);
      if (existing) {
        current = existing;
        if (separatorPending) current.push("--");
      } else {
        // A separator between two files' output is re-added when the groups are joined.
        current = [];
        groups.set(relativePath, current);
      }
    } else if (separatorPending) current?.push("--");
    separatorPending = false;
    current?.push(formatLine(joinRelative(root, relativePath), line.slice(nul + 1), options.showLineNumbers));
  }
  const lines: string[] = [];
  for (const path of [...groups.keys()].sort(compareStrings)) {
    if (options.hasContext && lines.length > 0) lines.push("--");
    for (const line of groups.get(path)!) lines.push(line);
  }
  return { lines, files: groups.size };
}

export interface FileCount {
  path: string;
  count: number;
}

/** `--count --null` output: one `path NUL count` line per file, returned in path order. */
export function parseCountOutput(stdout: Buffer, root: string): FileCount[] {
  const counts: FileCount[] = [];
  for (const line of splitLines(stdout)) {
    const nul = line.indexOf("\0");
    if (nul === -1) continue;
    const count = Number(line.slice(nul + 1));
    if (Number.isFinite(count)) counts.push({ path: joinRelative(root, line.slice(0, nul)), count });
  }
  return counts.sort((a, b) => compareStrings(a.path, b.path));
}
