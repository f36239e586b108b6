// The ignore rules of the folders above a search root, restated relative to the root, so rg can take
// them in the run's ignore file with --no-ignore-parent. For a parent's rules rg joins every path it
// lists onto the parent's absolute path before matching (on 200,000 files, ~30% of the listing's
// time); an ignore file matches the relative path as listed. The restated rules must list exactly what
// rg's own reading lists (parentIgnores.test.ts runs both on real trees): where a rule cannot be
// restated exactly, or where precedence would change, the answer is "let rg read them" (undefined).
import { readFileSync, realpathSync, type Stats, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, sep } from "node:path";

/** Past this, the parents' rules are left to rg: the restated copy is written on every search. */
const MAX_RULE_BYTES = 256 * 1024;

/** Characters that make a gitignore path segment a pattern rather than a name. */
const GLOB_SYNTAX = /[*?[\]{}\\]/;

type Restated = string[] | undefined;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A path's stat, null if there is nothing there, undefined if it cannot be asked (a folder not searchable). */
function statIfPresent(path: string): Stats | null | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return undefined;
  }
}

/**
 * A file's bytes, null if there is none, undefined if it cannot be read. Absence is asked of stat, which
 * answers without throwing: most folders have none of the files looked for, and a throw costs ~15 µs.
 */
function readIfPresent(path: string): Buffer | null | undefined {
  const info = statIfPresent(path);
  if (info === null || info === undefined) return info;
  if (!info.isFile() || info.size > MAX_RULE_BYTES) return undefined;
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** One file's rule lines; undefined if it exists but cannot be taken exactly (unreadable, not UTF-8). */
function ruleLines(path: string): Restated {
  const bytes = readIfPresent(path);
  if (bytes === null) return [];
  if (bytes === undefined) return undefined;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  if (text.startsWith("\uFEFF")) return undefined;
  return text.split(/\r?\n/).filter((line) => line.trim() !== "" && !line.startsWith("#"));
}

/**
 * A rule of the file in `base`, restated for a root at `fromBase` (the root's path below `base`, as
 * segments): the same line where it matches at any depth, re-anchored at the root where its anchored
 * path runs through the root, dropped where it names a path beside the root, the root itself or a
 * folder above it (rg checks neither the root it is given nor its parents), undefined where a pattern
 * segment stands where the root's path is, or where the rule re-includes ("!": rg weighs a parent's
 * re-include against the other ignore sources by rank, which an ignore file, ranked last, cannot keep).
 */
export function restateRule(line: string, fromBase: readonly string[]): Restated {
  if (line.startsWith("!")) return undefined;
  const body = line.replace(/(?<!\\) +$/, "");
  const dirOnly = body.endsWith("/");
  const path = dirOnly ? body.slice(0, -1) : body;
  const unanchored = !path.includes("/") || (path.startsWith("**/") && !path.slice(3).includes("/"));
  if (unanchored) return [line];
  const segments = path.replace(/^\//, "").split("/");
  if (segments.length <= fromBase.length)
    return segments.some((segment) => GLOB_SYNTAX.test(segment)) ? undefined : [];
  for (const [index, name] of fromBase.entries()) {
    if (GLOB_SYNTAX.test(segments[index]!)) return undefined;
    if (segments[index] !== name) return [];
  }
  return [`/${segments.slice(fromBase.length).join("/")}${dirOnly ? "/" : ""}`];
}

/**
 * Whether the global gitignore rg reads (core.excludesFile in ~/.gitconfig or the XDG git config, else
 * the XDG git/ignore) may re-include a path. rg ranks it below the parents' .gitignore files and above
 * an ignore file, so restated parent rules would now lose to its "!" lines. Every file it may read is
 * looked at; a setting that cannot be followed counts as "may".
 */
function globalIgnoreMayReinclude(env: NodeJS.ProcessEnv): boolean {
  const home = env.HOME || homedir();
  const config = env.XDG_CONFIG_HOME || join(home, ".config");
  const files = [join(config, "git", "ignore")];
  for (const gitConfig of [join(home, ".gitconfig"), join(config, "git", "config")]) {
    const bytes = readIfPresent(gitConfig);
    if (bytes === undefined) return true;
    for (const [, value] of (bytes?.toString("utf8") ?? "").matchAll(/^\s*excludesfile\s*=(.*)$/gim)) {
      const path = value!
        .trim()
        .replace(/^"(.*)"$/, "$1")
        .replace(/^~(?=\/)/, home);
      if (!isAbsolute(path)) return true;
      files.push(path);
    }
  }
  return files.some((file) => {
    const lines = ruleLines(file);
    return lines === undefined || lines.some((line) => line.startsWith("!"));
  });
}

/** Whether `folder` holds a .git folder (its info/exclude is read), nothing, or a .git file (a worktree). */
function gitDirectory(folder: string): "folder" | "none" | "other" {
  const info = statIfPresent(join(folder, ".git"));
  if (info === null) return "none";
  return info?.isDirectory() ? "folder" : "other";
}

/**
 * The rules rg would read in the folders above `root`, restated relative to it: every ancestor's
 * .gitignore and, beside a .git folder, .git/info/exclude. Without "!" lines (restateRule) each rule
 * only ignores, so their order and the file they came from do not matter. Undefined where only rg's
 * own reading is exact: an ancestor's .ignore or .rgignore (rg ranks them above the root's own
 * .gitignore), a .git file (a worktree's exclude file is elsewhere), a rule that cannot be restated,
 * more than MAX_RULE_BYTES of rules, or a global gitignore that re-includes.
 */
export function parentIgnoreRules(root: string, env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  let real: string;
  try {
    real = realpathSync.native(root);
  } catch {
    return undefined;
  }
  const rules: string[] = [];
  let size = 0;
  for (let base = dirname(real), below = real; base !== below; below = base, base = dirname(base)) {
    for (const name of [".ignore", ".rgignore"])
      if (ruleLines(join(base, name))?.length !== 0) return undefined;
    const git = gitDirectory(base);
    if (git === "other") return undefined;
    const fromBase = relative(base, real).split(sep);
    const files = [
      join(base, ".gitignore"),
      ...(git === "folder" ? [join(base, ".git", "info", "exclude")] : []),
    ];
    for (const file of files) {
      const lines = ruleLines(file);
      if (lines === undefined) return undefined;
      for (const line of lines) {
        const restated = restateRule(line, fromBase);
        if (restated === undefined) return undefined;
        size += line.length;
        rules.push(...restated);
      }
    }
  }
  if (size > MAX_RULE_BYTES) return undefined;
  if (rules.length > 0 && globalIgnoreMayReinclude(env)) return undefined;
  return rules;
}
