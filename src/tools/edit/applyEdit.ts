// One string replacement applied to a file's text in memory: exact match first, then the tolerant
// strategies; uniqueness is checked here, so every strategy is held to the same rule.
import { ToolError } from "../../tool/errors.ts";
import type { LineEnding } from "../shared/encoding.ts";
import { closestRegion } from "./closestRegion.ts";
import { type MatchStrategy, TOLERANT_STRATEGIES } from "./strategies.ts";

export interface EditSpec {
  old_string: string;
  new_string: string;
  replace_all?: boolean | undefined;
}

/** One replaced span, in the coordinates of the text before the edit. */
export interface EditSite {
  index: number;
  length: number;
  replacement: string;
}

export interface AppliedEdit {
  text: string;
  /** Where the text changed, in order; lets the writer splice bytes instead of re-encoding the file. */
  sites: EditSite[];
  /** The strategy that found old_string ("exact" unless a tolerant one was needed). */
  strategy: string;
  forgiven: string;
  replacements: number;
}

function countOccurrences(content: string, needle: string, stopAt = Number.POSITIVE_INFINITY): number[] {
  const positions: number[] = [];
  for (
    let i = content.indexOf(needle);
    i !== -1 && positions.length < stopAt;
    i = content.indexOf(needle, i + needle.length)
  ) {
    positions.push(i);
  }
  return positions;
}

function lineNumberAt(content: string, index: number): number {
  let line = 1;
  for (let i = content.indexOf("\n"); i !== -1 && i < index; i = content.indexOf("\n", i + 1)) line++;
  return line;
}

/** Matches of a tolerant strategy must be about as long as old_string: a loose rule must not grab a region. */
function aboutSameSize(candidate: string, oldString: string): boolean {
  const ratio = candidate.length / Math.max(1, oldString.length);
  return Math.abs(candidate.length - oldString.length) <= 16 || (ratio >= 0.5 && ratio <= 2);
}

function replaceSites(content: string, positions: readonly number[], length: number, replacement: string) {
  const sites: EditSite[] = positions.map((index) => ({ index, length, replacement }));
  if (sites.length === 1) {
    // Concatenation stays a rope: a huge file is not copied until something needs it flat.
    const only = sites[0] as EditSite;
    return { text: content.slice(0, only.index) + replacement + content.slice(only.index + length), sites };
  }
  const parts: string[] = [];
  let from = 0;
  for (const site of sites) {
    parts.push(content.slice(from, site.index), site.replacement);
    from = site.index + site.length;
  }
  parts.push(content.slice(from));
  return { text: parts.join(""), sites };
}

function notUnique(
  path: string,
  content: string,
  positions: number[],
  total: number,
  label: string,
): ToolError {
  const lines = positions.slice(0, 5).map((position) => lineNumberAt(content, position));
  return new ToolError(
    "not_unique",
    `Found ${total} matches of ${label} in ${path} (at lines ${lines.join(", ")}${total > lines.length ? ", ..." : ""}), but replace_all is false. To replace every one, set replace_all to true; to replace one, add surrounding lines to old_string so it matches exactly one place.`,
  );
}

function notFound(path: string, content: string, oldString: string, looseMatches: string[]): ToolError {
  const region = closestRegion(content, oldString);
  const loose =
    looseMatches.length > 0
      ? ` (${looseMatches.join("; ")}: add more surrounding lines to make old_string unique)`
      : "";
  const hint = region
    ? ` The closest match is at lines ${region.startLine}-${region.endLine}:\n${region.text}\nCompare it with old_string, fix what differs (whitespace, quotes, indentation, changed code), and retry without the line-number prefixes.`
    : " Read the file to see its current content, then copy old_string from it exactly (without the line-number prefixes).";
  return new ToolError("string_not_found", `String to replace not found in ${path}${loose}.${hint}`);
}

function tryStrategy(
  strategy: MatchStrategy,
  content: string,
  edit: EditSpec,
): { result?: AppliedEdit; ambiguous?: number } {
  const candidates = new Set<string>();
  for (const candidate of strategy.candidates(content, edit.old_string)) {
    if (candidate !== "" && aboutSameSize(candidate, edit.old_string)) candidates.add(candidate);
    if (candidates.size > 10) break;
  }
  if (candidates.size === 0) return {};
  const counts = [...candidates].map((candidate) =>
    countOccurrences(content, candidate, edit.replace_all ? Infinity : 2),
  );
  const total = counts.reduce((sum, positions) => sum + positions.length, 0);
  const [matched] = candidates;
  const accept = edit.replace_all ? candidates.size === 1 : total === 1;
  if (!accept || matched === undefined) return { ambiguous: total };
  const replacement = strategy.adapt
    ? strategy.adapt(edit.new_string, matched, edit.old_string)
    : edit.new_string;
  const positions = counts[0] as number[];
  const { text, sites } = replaceSites(content, positions, matched.length, replacement);
  return {
    result: {
      text,
      sites,
      strategy: strategy.name,
      forgiven: strategy.forgives,
      replacements: positions.length,
    },
  };
}

/**
 * Applies one edit. In a CRLF file, old_string and new_string are taken with CRLF line breaks. Throws
 * ToolError: not_unique (exact matches > 1 without replace_all) or string_not_found (with the closest region).
 */
export function applyEdit(
  content: string,
  edit: EditSpec,
  lineEnding: LineEnding,
  path: string,
): AppliedEdit {
  const fitted: EditSpec =
    lineEnding === "CRLF"
      ? {
          ...edit,
          old_string: edit.old_string.replace(/\r?\n/g, "\r\n"),
          new_string: edit.new_string.replace(/\r?\n/g, "\r\n"),
        }
      : edit;
  const positions = countOccurrences(content, fitted.old_string, fitted.replace_all ? Infinity : 2);
  if (positions.length > 1 && !fitted.replace_all) {
    const all = countOccurrences(content, fitted.old_string, 1000);
    throw notUnique(path, content, all, all.length, "old_string");
  }
  if (positions.length > 0) {
    const { text, sites } = replaceSites(content, positions, fitted.old_string.length, fitted.new_string);
    return {
      text,
      sites,
      strategy: "exact",
      forgiven: "nothing",
      replacements: positions.length,
    };
  }
  const loose: string[] = [];
  for (const strategy of TOLERANT_STRATEGIES) {
    const { result, ambiguous } = tryStrategy(strategy, content, fitted);
    if (result) return result;
    if (ambiguous !== undefined)
      loose.push(
        `ignoring ${strategy.forgives}, it matches ${ambiguous === 2 ? "2 or more" : ambiguous} places`,
      );
  }
  throw notFound(path, content, fitted.old_string, loose);
}
