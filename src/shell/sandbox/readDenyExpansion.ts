// What the session's Read deny rules cover on the disk now, for the confinement to hide: a fixed path
// when it exists, and for a pattern every match found by walking the folders it applies to (its fixed
// leading folders, or each working directory for a pattern that matches at any depth). The walk is
// kept and reused while a fingerprint of the walked folders holds (sandboxFingerprint.ts), so a small
// project pays for it once; one too large to watch is walked on every call, up to WALK_BUDGET entries.
import { type Dirent, lstatSync, readdirSync, realpathSync } from "node:fs";
import { join, sep } from "node:path";
import { type CompiledPathRule, compiledRuleMatches } from "../../permissions/pathRules.ts";
import { isPathWithin } from "../../permissions/paths.ts";
import { type ToolPermissionContext, workingDirectories } from "../../tool/context.ts";
import { compiledDenyRules } from "./denyRulePaths.ts";
import { type Fingerprint, fingerprintHolds, takeFingerprint } from "./sandboxFingerprint.ts";

/** Entries looked at in one walk; beyond it the walk stops and says so. */
export const WALK_BUDGET = 50_000;

export interface HiddenPaths {
  /** Folders to show empty. */
  folders: string[];
  /** Files to show empty. */
  files: string[];
  /** Set when a walk stopped at its budget: matches beyond it are not hidden. */
  incomplete?: string;
}

const WILDCARD = /[*?[\]]/;

/** The fixed folders a pattern starts with, and what is left of it after them. */
function fixedPrefix(rule: CompiledPathRule): { prefix: string[]; rest: string[] } {
  const segments = rule.pattern.replace(/^\//, "").split("/");
  const at = segments.findIndex((segment) => WILDCARD.test(segment));
  return at === -1
    ? { prefix: segments, rest: [] }
    : { prefix: segments.slice(0, at), rest: segments.slice(at) };
}

/** What is at `path` (a missing path costs no exception: most protected names are missing). */
function kindOf(path: string): "folder" | "file" | "link" | undefined {
  try {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats) return undefined;
    return stats.isSymbolicLink() ? "link" : stats.isDirectory() ? "folder" : "file";
  } catch {
    return undefined;
  }
}

/** Adds a path to hide: a link is hidden where it leads (a mount lands there). */
function hide(found: HiddenPaths, path: string): void {
  let target = path;
  let kind = kindOf(path);
  if (kind === "link") {
    try {
      target = realpathSync.native(path);
      kind = kindOf(target);
    } catch {
      return;
    }
  }
  if (kind === "folder") found.folders.push(target);
  else if (kind === "file") found.files.push(target);
}

interface Walk {
  /** Folders walked from (each working directory, or a pattern's fixed leading folders). */
  starts: string[];
  rules: CompiledPathRule[];
}

/** Walks `start`, hiding what a rule matches (a matched folder whole, without walking into it). */
function walkFrom(
  start: string,
  rules: readonly CompiledPathRule[],
  found: HiddenPaths,
  budget: { left: number },
): void {
  const pending = [start];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    budget.left -= entries.length;
    if (budget.left < 0) {
      found.incomplete = `more than ${WALK_BUDGET} entries to look through for what Read deny rules cover`;
      return;
    }
    for (const entry of entries) {
      const path = dir === sep ? sep + entry.name : dir + sep + entry.name;
      if (rules.some((rule) => compiledRuleMatches(rule, path, "deny"))) hide(found, path);
      else if (entry.isDirectory()) pending.push(path);
    }
  }
}

/** Fixed paths hidden at once; patterns grouped into the folders to walk. */
function plan(context: ToolPermissionContext, found: HiddenPaths): Walk {
  const starts = new Set<string>();
  const rules: CompiledPathRule[] = [];
  for (const rule of compiledDenyRules(context, "read")) {
    const { prefix, rest } = fixedPrefix(rule);
    const fixed = join(rule.root, ...prefix);
    if (rest.length === 0 && !rule.anyDepth) {
      // `dir/` matches only a folder; a plain name, whatever is there.
      if (!rule.pattern.endsWith("/") || kindOf(fixed) === "folder") hide(found, fixed);
      continue;
    }
    if (!rule.anyDepth && rest.length === 1 && rest[0] === "**") {
      hide(found, fixed);
      continue;
    }
    rules.push(rule);
    for (const start of rule.anyDepth ? [rule.root, ...workingDirectories(context)] : [fixed])
      if (kindOf(start) === "folder") starts.add(start);
  }
  // A folder inside another start is walked as part of it.
  const outermost = [...starts].filter(
    (start) => ![...starts].some((other) => other !== start && isPathWithin(start, other)),
  );
  return { starts: outermost.sort(), rules };
}

interface Kept {
  key: string;
  fingerprint: Fingerprint;
  found: HiddenPaths;
}

/** The last walk, reused while its folders hold; one, since a process confines for one policy at a time. */
let kept: Kept | undefined;

/** What the Read deny rules cover now: fixed paths that exist, and what a walk of the patterns' folders finds. */
export function readDeniedPaths(context: ToolPermissionContext): HiddenPaths {
  const found: HiddenPaths = { folders: [], files: [] };
  const walk = plan(context, found);
  if (walk.rules.length === 0) return found;
  const key = JSON.stringify([walk.starts, walk.rules]);
  if (kept?.key === key && fingerprintHolds(kept.fingerprint)) return merge(found, kept.found);
  // The fingerprint is taken before the walk: a change during the walk makes it fail next time.
  const fingerprint = takeFingerprint({
    chains: walk.starts,
    globRoots: walk.starts.map((dir) => ({ dir, depth: Number.POSITIVE_INFINITY })),
  });
  const walked: HiddenPaths = { folders: [], files: [] };
  const budget = { left: WALK_BUDGET };
  for (const start of walk.starts) {
    walkFrom(start, walk.rules, walked, budget);
    if (walked.incomplete) break;
  }
  kept = fingerprint && !walked.incomplete ? { key, fingerprint, found: walked } : undefined;
  return merge(found, walked);
}

function merge(fixed: HiddenPaths, walked: HiddenPaths): HiddenPaths {
  return {
    folders: [...new Set([...fixed.folders, ...walked.folders])],
    files: [...new Set([...fixed.files, ...walked.files])],
    ...(walked.incomplete ? { incomplete: walked.incomplete } : {}),
  };
}
