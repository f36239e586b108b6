// What a word names, as bash expands it before the command runs: brace expansion, then the tilde, then
// globs matched against the real file system (no dotglob, `.` and `..` never matched, as bash 5.2).
// A word whose value is only known at run time ($VAR, substitutions) is unknown: callers ask.
import { readdirSync } from "node:fs";
import { userInfo } from "node:os";
import { resolve } from "node:path";
import { couldNameProtected, lstatOrUndefined } from "../../permissions/paths.ts";
import type { Word } from "./grammar/words.ts";

export type Expansion =
  | {
      kind: "paths";
      /** Every path the word may name, as written (relative ones are relative to the folder given). */
      paths: string[];
      /** Paths that exist and were matched by a glob (a subset of `paths`). */
      globMatches: string[];
    }
  | {
      kind: "unknown";
      check: string;
      reason: string;
      /** False when no value it may take can name a protected folder or file (a glob whose parts cannot). */
      mayNameProtected?: boolean;
    };

const MAX_EXPANSIONS = 256;
const MAX_ENTRIES = 2_000;
const GLOB_CHARS = /[*?[]/;

export interface ExpandOptions {
  /** The folder relative globs are matched in. */
  cwd: string;
  /** The caller's home: what `~` is (CallerEnvironment.home). */
  home: string;
  /** Earlier commands of the same line may create or remove files: what a glob matches then is unknown. */
  filesMayChange?: boolean;
  /** The path is written: a glob's folders must exist, its last part may be created. */
  forWrite?: boolean;
  /** An earlier command changed how globs match (shopt, set, GLOBIGNORE=): why, and then every glob is unknown. */
  globRulesChanged?: string;
  /** An earlier command of the line may have set HOME: what `~` names is then unknown. */
  homeChanged?: string;
}

class TooMany extends Error {}

/** Expands one word, or says why its value cannot be known before it runs. */
export function expandWord(word: Word | undefined, value: string, options: ExpandOptions): Expansion {
  if (word?.dynamic || word?.unknown)
    return {
      kind: "unknown",
      check: "dynamic-path",
      reason: `the path ${word.text} is only known at run time`,
    };
  const alternatives = word?.brace ? braceExpand(value) : [value];
  if (alternatives === undefined)
    return { kind: "unknown", check: "dynamic-path", reason: `the brace expansion ${value} is too large` };
  const paths: string[] = [];
  const globMatches: string[] = [];
  for (const alternative of alternatives) {
    const tilde =
      word === undefined
        ? alternative.startsWith("~")
        : word.tilde || (word.brace && alternative.startsWith("~"));
    if (tilde && options.homeChanged && /^~(\/|$)/.test(alternative))
      return {
        kind: "unknown",
        check: "dynamic-path",
        reason: `${alternative} depends on HOME, which ${options.homeChanged} may have set`,
      };
    const path = tilde ? expandTilde(alternative, options.home) : alternative;
    if (path === undefined)
      return {
        kind: "unknown",
        check: "tilde-user",
        reason: `${alternative} names another user's home folder`,
      };
    paths.push(path);
    if (!(word?.glob && GLOB_CHARS.test(path))) continue;
    if (options.globRulesChanged)
      return {
        kind: "unknown",
        check: "glob-path",
        reason: `the glob ${path} is matched under options ${options.globRulesChanged} changed`,
      };
    if (options.filesMayChange)
      return {
        kind: "unknown",
        check: "glob-path",
        reason: `what the glob ${path} matches depends on the commands before it`,
        mayNameProtected: path.split("/").some(
          // Without dotglob, only a part written with a leading dot matches a dot name.
          (segment) =>
            GLOB_CHARS.test(segment) &&
            segment.startsWith(".") &&
            couldNameProtected((name) => segmentRegex(segment).test(name)),
        ),
      };
    try {
      const matches = globMatch(path, options.cwd, options.forWrite ?? false);
      paths.push(...matches);
      globMatches.push(...matches);
    } catch (error) {
      if (!(error instanceof TooMany)) throw error;
      return {
        kind: "unknown",
        check: "glob-path",
        reason: `the glob ${path} covers too many files to judge`,
      };
    }
    if (paths.length > MAX_EXPANSIONS)
      return {
        kind: "unknown",
        check: "glob-path",
        reason: `${word.text} expands to too many paths to judge`,
      };
  }
  return { kind: "paths", paths: [...new Set(paths)], globMatches };
}

/** `~` and `~/x` are the caller's home folder; `~name` is known only when it is this user. */
export function expandTilde(value: string, home: string): string | undefined {
  if (value === "~" || value.startsWith("~/")) return home + value.slice(1);
  const slash = value.indexOf("/");
  const user = value.slice(1, slash === -1 ? undefined : slash);
  let self: string | undefined;
  try {
    self = userInfo().username;
  } catch {
    self = undefined;
  }
  if (user !== "" && user === self) return home + (slash === -1 ? "" : value.slice(slash));
  return undefined;
}

/** bash brace expansion (`{a,b}`, `{1..3}`, `{a..c}`), or undefined when it grows too large. */
export function braceExpand(text: string): string[] | undefined {
  const results: string[] = [];
  const pending = [text];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    const brace = firstBrace(current);
    if (!brace) {
      results.push(current);
      if (results.length > MAX_EXPANSIONS) return undefined;
      continue;
    }
    const before = current.slice(0, brace.start);
    const after = current.slice(brace.end + 1);
    for (const item of brace.items.reverse()) pending.push(before + item + after);
    if (pending.length > MAX_EXPANSIONS) return undefined;
  }
  return results;
}

/** The first `{...}` that expands: a top-level comma list or a sequence. */
function firstBrace(text: string): { start: number; end: number; items: string[] } | undefined {
  for (let start = 0; start < text.length; start++) {
    if (text[start] !== "{" || text[start - 1] === "$" || text[start - 1] === "\\") continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = start; i < text.length; i++) {
      const char = text[i];
      if (char === "\\") {
        i++;
        continue;
      }
      if (char === "{") depth++;
      else if (char === "}") {
        depth--;
        if (depth > 0) continue;
        const body = text.slice(start + 1, i);
        if (commas.length > 0) {
          const items: string[] = [];
          let from = start + 1;
          for (const comma of commas) {
            items.push(text.slice(from, comma));
            from = comma + 1;
          }
          items.push(text.slice(from, i));
          return { start, end: i, items };
        }
        const sequence = sequenceItems(body);
        if (sequence) return { start, end: i, items: sequence };
        break;
      } else if (char === "," && depth === 1) commas.push(i);
    }
  }
  return undefined;
}

function sequenceItems(body: string): string[] | undefined {
  const numbers = body.match(/^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/);
  if (numbers) {
    const [from, to] = [Number(numbers[1]), Number(numbers[2])];
    const step = Math.abs(Number(numbers[3] ?? 1)) || 1;
    if (Math.abs(to - from) / step > MAX_EXPANSIONS) return undefined;
    const items: string[] = [];
    for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? step : -step) items.push(String(n));
    return items;
  }
  const letters = body.match(/^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/);
  if (!letters) return undefined;
  const [from, to] = [(letters[1] as string).charCodeAt(0), (letters[2] as string).charCodeAt(0)];
  const step = Math.abs(Number(letters[3] ?? 1)) || 1;
  const items: string[] = [];
  for (let c = from; from <= to ? c <= to : c >= to; c += from <= to ? step : -step)
    items.push(String.fromCharCode(c));
  return items;
}

/** POSIX character classes as regex class bodies (ASCII, and wider where a locale may be: matching more is safe). */
const POSIX_CLASSES: Record<string, string> = {
  alpha: "\\p{L}",
  digit: "0-9",
  alnum: "\\p{L}0-9",
  upper: "\\p{Lu}",
  lower: "\\p{Ll}",
  space: "\\s",
  blank: " \\t",
  punct: "!-/:-@\\[-`{-~",
  xdigit: "0-9A-Fa-f",
  word: "\\p{L}0-9_",
  cntrl: "\\x00-\\x1f\\x7f",
  print: "\\P{Cc}",
  graph: "\\P{Cc}",
};

function classChar(char: string): string {
  return /[\\\][^-]/.test(char) ? `\\${char}` : char;
}

/**
 * A bracket expression from `[` at `start`, as bash reads it: `!` or `^` negates, a `]` first is
 * literal, ranges, and [:class:] / [=c=] / [.c.]. Undefined when it does not close (then `[` is literal).
 */
function bracket(pattern: string, start: number): { source: string; end: number } | undefined {
  let i = start + 1;
  let negate = false;
  if (pattern[i] === "!" || pattern[i] === "^") {
    negate = true;
    i++;
  }
  let body = "";
  for (let first = true; i < pattern.length; first = false) {
    const char = pattern[i] as string;
    if (char === "]" && !first) return { source: `[${negate ? "^" : ""}${body}]`, end: i };
    if (char === "[" && /[:=.]/.test(pattern[i + 1] ?? "")) {
      const kind = pattern[i + 1] as string;
      const close = pattern.indexOf(`${kind}]`, i + 2);
      if (close !== -1) {
        const name = pattern.slice(i + 2, close);
        body += kind === ":" ? (POSIX_CLASSES[name] ?? "\\s\\S") : [...name].map(classChar).join("");
        i = close + 2;
        continue;
      }
    }
    if (char === "\\" && i + 1 < pattern.length) {
      body += classChar(pattern[i + 1] as string);
      i += 2;
      continue;
    }
    if (pattern[i + 1] === "-" && pattern[i + 2] !== undefined && pattern[i + 2] !== "]") {
      body += `${classChar(char)}-${classChar(pattern[i + 2] as string)}`;
      i += 3;
      continue;
    }
    body += classChar(char);
    i++;
  }
  return undefined;
}

/** A regex for one glob segment as bash matches it (without extglob; `*` and `?` never match `/`). */
export function segmentRegex(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "\\" && i + 1 < pattern.length)
      source += (pattern[++i] as string).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    else if (char === "[") {
      const expression = bracket(pattern, i);
      if (expression) {
        source += expression.source;
        i = expression.end;
      } else source += "\\[";
    } else source += char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  try {
    return new RegExp(`^${source}$`, "su");
  } catch {
    // A class the regex engine refuses (a reversed range): match anything, so every name is judged.
    return /^[\s\S]*$/u;
  }
}

function entriesOf(folder: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  if (names.length > MAX_ENTRIES) throw new TooMany();
  return names;
}

/**
 * The existing paths a glob matches, in the form it is written (relative stays relative). With
 * `lastMayBeNew`, a literal last part need not exist (a write may create it), only the folders before it.
 */
export function globMatch(pattern: string, cwd: string, lastMayBeNew = false): string[] {
  const absolute = pattern.startsWith("/");
  const folderOnly = pattern.endsWith("/");
  const segments = pattern.split("/").filter((segment) => segment !== "");
  let candidates = [absolute ? "/" : ""];
  for (const segment of segments) {
    const next: string[] = [];
    for (const prefix of candidates) {
      if (!GLOB_CHARS.test(segment)) {
        next.push(join(prefix, segment));
        continue;
      }
      const regex = segmentRegex(segment);
      for (const name of entriesOf(resolve(cwd, prefix || "."))) {
        if (name === "." || name === "..") continue;
        if (name.startsWith(".") && !segment.startsWith(".")) continue;
        if (regex.test(name)) next.push(join(prefix, name));
      }
      if (next.length > MAX_EXPANSIONS) throw new TooMany();
    }
    candidates = next;
  }
  const lastIsLiteral = !GLOB_CHARS.test(segments.at(-1) ?? "");
  return candidates.filter((candidate) => {
    if (lastMayBeNew && lastIsLiteral && segments.length > 1) {
      const folder = candidate.slice(0, candidate.lastIndexOf("/")) || "/";
      return lstatOrUndefined(resolve(cwd, folder)) !== undefined;
    }
    const stats = lstatOrUndefined(resolve(cwd, candidate));
    return stats !== undefined && (!folderOnly || stats.isDirectory() || stats.isSymbolicLink());
  });
}

function join(prefix: string, name: string): string {
  if (prefix === "") return name;
  return prefix.endsWith("/") ? prefix + name : `${prefix}/${name}`;
}
