// The rg flags every search tool shares, and the exclusions that must come last: in rg a later glob
// wins over an earlier one, so nothing the model passes can re-include a VCS folder or a denied file.

import { KEEL_WORK_NAME_EXCLUSIONS } from "../shared/keelNames.ts";

export const VCS_FOLDERS = [".git", ".svn", ".hg", ".bzr", ".jj", ".sl"] as const;

/** Lines longer than this are cut to a preview in content mode. */
export const MAX_LINE_COLUMNS = 500;

/**
 * `--no-config`: a user's RIPGREP_CONFIG_PATH must not change the output format Keel parses.
 * `--no-require-git`: .gitignore applies outside git repositories too. Symlinks are never followed (no -L).
 */
export function commonSearchArgs(): string[] {
  return ["--no-config", "--hidden", "--no-require-git", "--color=never"];
}

/**
 * VCS folders, Keel's own work files (a write's temporary copy, its lock) and Read-denied paths, as
 * negated globs for the end of the command line. Deny globs are case-insensitive (`--iglob`), as deny
 * rules are matched broadly everywhere else.
 */
export function exclusionArgs(denyPatterns: readonly string[]): string[] {
  return [
    ...VCS_FOLDERS.map((folder) => `--glob=!${folder}`),
    ...KEEL_WORK_NAME_EXCLUSIONS,
    ...denyPatterns.map((pattern) => `--iglob=!${pattern}`),
  ];
}

/**
 * The glob parameter as rg globs: split on whitespace and on commas outside braces, so
 * "*.ts, *.tsx" and "*.{ts,tsx}" both work.
 */
export function splitGlobParameter(glob: string): string[] {
  const globs: string[] = [];
  for (const word of glob.split(/\s+/)) {
    if (!word) continue;
    let depth = 0;
    let current = "";
    for (const char of word) {
      if (char === "{") depth++;
      else if (char === "}") depth = Math.max(0, depth - 1);
      if (char === "," && depth === 0) {
        if (current) globs.push(current);
        current = "";
      } else current += char;
    }
    if (current) globs.push(current);
  }
  return globs;
}
