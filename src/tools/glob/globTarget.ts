// Where a Glob searches and with which pattern. A relative pattern is matched from the path (or cwd);
// an absolute pattern names its own root: the folders before its first wildcard.
import { isAbsolute } from "node:path";
import picomatch from "picomatch";
import { expandHome } from "../../permissions/paths.ts";

export interface GlobTarget {
  /** The search root as the input gives it (undefined: the current directory). */
  path: string | undefined;
  /** The pattern relative to that root, without a leading "./" or "/". */
  pattern: string;
}

export function globTarget(input: { pattern: string; path?: string | undefined }): GlobTarget {
  const pattern = expandHome(input.pattern.trim());
  if (!isAbsolute(pattern)) return { path: input.path, pattern: pattern.replace(/^(\.\/)+/, "") };
  const segments = pattern.split("/");
  let staticCount = 1;
  while (staticCount < segments.length - 1 && !picomatch.scan(segments[staticCount]!).isGlob) staticCount++;
  const root = segments.slice(0, staticCount).join("/") || "/";
  return { path: root, pattern: segments.slice(staticCount).join("/") || "**" };
}

/** As an rg glob: anchored at the root, so "*.ts" means top-level files as in a shell, not any depth. */
export function toRipgrepGlob(pattern: string): string {
  return `/${pattern}`;
}

/** Patterns every file matches ("**", "**\/*"): rg needs no ignore file and paths no check (both cost on big trees). */
export function matchesEveryFile(pattern: string): boolean {
  return /^\*\*(\/\*\*)*(\/\*)?$/.test(pattern);
}

/**
 * The exact check on what rg lists: a path an ignore file re-includes (`!name` in .gitignore) passes
 * the ignore file above whatever the pattern says.
 */
export function patternMatcher(pattern: string): (relativePath: string) => boolean {
  return picomatch(pattern, { dot: true });
}
