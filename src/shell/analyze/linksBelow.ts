// What a command that opens every file below a folder by name meets there (find -exec cat {}, find |
// xargs wc): the symbolic links it would follow, and names xargs would split or unquote (`a b`,
// `x'y`). Looked for in one walk, bounded: a larger tree is not known to be free of them.
import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";

/** Entries looked at in one walk; a larger tree asks (the walk costs about a microsecond an entry). */
export const LINK_WALK_BUDGET = 5_000;

export interface BelowFolder {
  /** Links whose own name passes the filter, by path. */
  links: string[];
  /** The first name xargs would split or unquote, when asked to look for one. */
  oddName?: string;
}

export interface WalkOptions {
  /** Which links matter (find -name x prints only links named like x). */
  linkName?: (name: string) => boolean;
  /** Also look for names with blanks, quotes or backslashes (xargs without -0 splits and unquotes them). */
  oddNames?: boolean;
  budget?: number;
}

const ODD = /[\s'"\\]/;

/** The links and odd names below `folder`, or undefined when it holds more entries than the budget. */
export function walkBelow(folder: string, options: WalkOptions = {}): BelowFolder | undefined {
  const budget = options.budget ?? LINK_WALK_BUDGET;
  const found: BelowFolder = { links: [] };
  const pending = [folder];
  let seen = 0;
  while (pending.length > 0) {
    const current = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    seen += entries.length;
    if (seen > budget) return undefined;
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (options.oddNames && found.oddName === undefined && ODD.test(entry.name)) found.oddName = path;
      if (entry.isSymbolicLink()) {
        if (options.linkName?.(entry.name) ?? true) found.links.push(path);
      } else if (entry.isDirectory()) pending.push(path);
    }
  }
  return found;
}
