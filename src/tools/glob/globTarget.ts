// Where a Glob searches and with which pattern. A relative pattern is matched from the path (or cwd);
// an absolute pattern names its own root: the folders before its first wildcard.
import { isAbsolute } from "node:path";
import picomatch from "picomatch";
import { LruMap } from "../../tool/lruMap.ts";

export interface GlobTarget {
  /** The search root as the input gives it (undefined: the current directory). */
  path: string | undefined;
  /** The pattern relative to that root, without a leading "./" or "/". */
  pattern: string;
}

export function globTarget(input: { pattern: string; path?: string | undefined }): GlobTarget {
  const pattern = input.pattern.trim();
  // `~/x/**`: rooted at the caller's home, which the root's own resolution expands (callPath).
  const rooted = isAbsolute(pattern) || pattern === "~" || pattern.startsWith("~/");
  if (!rooted) return { path: input.path, pattern: pattern.replace(/^(\.\/)+/, "") };
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

/** How rg narrows its listing to a superset of the pattern's matches, without outranking .gitignore. */
export interface RipgrepFilter {
  /** Arguments for rg: depth and file-name filters. */
  args: string[];
  /** Whether rg also needs the pattern as an ignore file (ignoreFile.ts): nothing here narrows by folder. */
  needsIgnoreFile: boolean;
}

/** A file-name glob rg's file types read as picomatch does: literals, `*`, `?` and flat `{a,b}` of two or more. */
const PLAIN_NAME_GLOB = /^(?:[\w.\-+@%=~ ]|\*|\?|\{[\w.\-+@%=~ *?]+(?:,[\w.\-+@%=~ *?]+)+\})+$/;

/**
 * rg filters for a pattern. A pattern with no `**` cannot match deeper than its segments (--max-depth).
 * A plain last segment becomes a file type (`--type-add`): rg applies types after .gitignore, so an
 * ignored file stays out, and a type is matched like a --glob (a gitignore-style ignore file costs rg
 * ~25% more on 200,000 files). Anything else falls back to the ignore file, or to no filter where rg
 * reads globs differently. picomatch still checks every listed path: these only let rg skip work.
 */
export function ripgrepFilter(pattern: string): RipgrepFilter {
  const args: string[] = [];
  const segments = pattern.split("/");
  // A leading "!" negates: "!*.ts" matches files at every depth.
  const flat = !/[()[\]\\]/.test(pattern) && !/\{[^}]*\//.test(pattern) && !pattern.startsWith("!");
  if (flat && !pattern.includes("**")) args.push(`--max-depth=${segments.length}`);
  const name = segments.at(-1)!;
  const usefulName = name !== "*" && !name.includes("**");
  if (flat && usefulName && PLAIN_NAME_GLOB.test(name)) {
    args.push(`--type-add=keelglob:${name}`, "--type=keelglob");
    return { args, needsIgnoreFile: false };
  }
  return { args, needsIgnoreFile: ripgrepReadsAlike(pattern) };
}

/**
 * Whether rg's glob syntax means what picomatch means by the pattern. Extglobs (`@(a|b)`), POSIX
 * classes, `[^...]`, nested braces, ranges and a leading `!` do not: rg would list nothing or the
 * wrong files, so it lists everything and picomatch alone decides.
 */
function ripgrepReadsAlike(pattern: string): boolean {
  return !/[()]|\[[:^]|\{[^}]*\{|\.\./.test(pattern) && !pattern.startsWith("!");
}

/** Patterns every file matches ("**", "**\/*"): rg needs no ignore file and paths no check (both cost on big trees). */
export function matchesEveryFile(pattern: string): boolean {
  return /^\*\*(\/\*\*)*(\/\*)?$/.test(pattern);
}

const matchers = new LruMap<string, (relativePath: string) => boolean>(64);

/**
 * The exact check on what rg lists: a path an ignore file re-includes (`!name` in .gitignore) passes
 * the ignore file above whatever the pattern says. Compiled once per pattern (a compile costs about
 * as much as checking a few hundred paths); the last 64 patterns are kept.
 */
export function patternMatcher(pattern: string): (relativePath: string) => boolean {
  let matcher = matchers.get(pattern);
  if (!matcher) {
    matcher = picomatch(pattern, { dot: true });
    matchers.set(pattern, matcher);
  }
  return matcher;
}
