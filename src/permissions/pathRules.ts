// Path rules: `Read(...)`, `Edit(...)`, `Write(...)` specifiers with gitignore semantics. Anchors:
// `//abs` (filesystem root), `~/` (home), `/x` (the settings file's folder), `./x` or bare (the project).
import { statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";
import picomatch from "picomatch";
import type { ToolPermissionContext } from "../tool/context.ts";
import { builtinRuleNamesWhere } from "../tools/catalog.ts";
import type { RuleContentMatcher, RuleMatchArgs } from "./matchers.ts";
import { isPathWithin, lstatOrUndefined, pathForms, toAbsolutePath } from "./paths.ts";
import { rulesNaming } from "./ruleIndex.ts";
import type { PermissionRule, RuleBehavior, RuleSource } from "./types.ts";

/**
 * Rule families whose specifiers are paths, by what a call does with the path: the rule names of the
 * built-in tools whose metas declare `pathAccess` (Read; Edit, Write, MultiEdit, NotebookEdit: Edit rules
 * cover every editing tool, which list "Edit" among their rule names).
 */
export const PATH_RULE_NAMES_BY_ACCESS: Readonly<Record<"read" | "write", readonly string[]>> = {
  read: builtinRuleNamesWhere((meta) => meta.pathAccess === "read"),
  write: builtinRuleNamesWhere((meta) => meta.pathAccess === "write"),
};

/** Every rule family whose specifiers are paths. */
export const PATH_RULE_NAMES: readonly string[] = [
  ...PATH_RULE_NAMES_BY_ACCESS.read,
  ...PATH_RULE_NAMES_BY_ACCESS.write,
];

/** A specifier made concrete: a gitignore pattern and the folder it is relative to. */
export interface CompiledPathRule {
  root: string;
  /** gitignore pattern relative to root; a leading "/" anchors it at root. */
  pattern: string;
  /** No "/" except a trailing one: gitignore matches it at any depth. */
  anyDepth: boolean;
}

export function validatePathRuleContent(content: string): string | undefined {
  if (content.trim() === "") return "a path rule needs a pattern";
  if (content.startsWith("!"))
    return "negated patterns (!) are not supported in permission rules; use an allow rule";
  if (content.includes("\0")) return "a path cannot contain a NUL byte";
  return undefined;
}

function anchored(rest: string): string {
  const trimmed = rest.replace(/^\/+/, "");
  return trimmed === "" ? "**" : `/${trimmed}`;
}

/** Where a specifier is anchored, per the rule's source (settings file folder for `/x`). */
export function compilePathRule(
  content: string,
  source: RuleSource,
  permissionContext: ToolPermissionContext,
): CompiledPathRule {
  const projectRoot = permissionContext.projectRoot;
  let root: string;
  let pattern: string;
  if (content.startsWith("//")) {
    root = "/";
    pattern = anchored(content.slice(2));
  } else if (content === "~" || content.startsWith("~/")) {
    root = permissionContext.caller.home;
    pattern = anchored(content.slice(1));
  } else if (content.startsWith("/")) {
    root = permissionContext.ruleRoots[source] ?? projectRoot;
    pattern = anchored(content);
  } else if (content === "." || content.startsWith("./")) {
    root = projectRoot;
    pattern = anchored(content.slice(1));
  } else {
    root = projectRoot;
    pattern = content;
  }
  const body = pattern.endsWith("/") ? pattern.slice(0, -1) : pattern;
  return { root, pattern, anyDepth: !body.includes("/") && pattern !== "**" };
}

const matcherCache = new Map<string, Ignore>();

function gitignoreMatcher(pattern: string, ignoreCase: boolean): Ignore {
  const key = `${ignoreCase ? "i" : "c"}:${pattern}`;
  let matcher = matcherCache.get(key);
  if (!matcher) {
    matcher = ignore({ ignorecase: ignoreCase, allowRelativePaths: false }).add(pattern);
    if (matcherCache.size > 2_000) matcherCache.clear();
    matcherCache.set(key, matcher);
  }
  return matcher;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/**
 * Does one compiled rule cover one absolute path? Deny and ask rules are read broadly (case-insensitive,
 * any-depth patterns also outside their root); allow rules narrowly (case-sensitive, inside their root only).
 */
export function compiledRuleMatches(
  rule: CompiledPathRule,
  absolutePath: string,
  behavior: RuleBehavior,
): boolean {
  const broad = behavior !== "allow";
  let rel = relativeInside(rule.root, absolutePath);
  if (rel === undefined) {
    if (!(broad && rule.anyDepth)) return false;
    rel = relative("/", absolutePath);
  }
  if (rel === "") return rule.pattern === "**";
  const posix = sep === "/" ? rel : rel.split(sep).join("/");
  const matcher = gitignoreMatcher(rule.pattern, broad);
  if (matcher.ignores(posix)) return true;
  // A folder-only pattern (`build/`): the disk is asked only when the pattern could match.
  return matcher.ignores(`${posix}/`) && isDirectory(absolutePath);
}

/** `path` relative to `root` when inside it (both absolute and normalised), without path.relative's copies. */
function relativeInside(root: string, path: string): string | undefined {
  if (!isPathWithin(path, root)) return undefined;
  if (path === root) return "";
  return path.slice(root.endsWith(sep) ? root.length : root.length + 1);
}

/** Deny/ask: either form of the path matching is enough. Allow: every form must match (a symlink cannot widen an allow). */
export function pathRuleMatches(
  content: string,
  source: RuleSource,
  behavior: RuleBehavior,
  path: string,
  permissionContext: ToolPermissionContext,
  cwd: string,
): boolean {
  const compiled = compilePathRule(content, source, permissionContext);
  const { given, resolved } = pathForms(path, cwd, permissionContext.caller.home);
  const forms = given === resolved ? [given] : [given, resolved];
  const hits = forms.map((form) => compiledRuleMatches(compiled, form, behavior));
  return behavior === "allow" ? hits.every(Boolean) : hits.some(Boolean);
}

function matchPathRule({ tool, input, context, permissionContext, rule }: RuleMatchArgs): boolean {
  const content = rule.value.ruleContent;
  if (content === undefined) return true;
  const cwd = context.getAppState().cwd;
  let path: string | undefined;
  try {
    path = tool.getPath ? (tool.getPath(input) ?? cwd) : undefined;
  } catch {
    path = undefined;
  }
  // A tool that cannot say which path it touches: deny and ask rules apply, allow rules do not.
  if (path === undefined || path === "") return rule.behavior !== "allow";
  return pathRuleMatches(content, rule.source, rule.behavior, path, permissionContext, cwd);
}

/** The matcher every path tool declares: `Read(...)` / `Edit(...)` specifiers against the tool's path. */
export const pathRuleMatcher: RuleContentMatcher = {
  matches: matchPathRule,
  validate: validatePathRuleContent,
};

function segmentMatches(patternSegment: string, name: string): boolean {
  if (patternSegment === name) return true;
  return picomatch.isMatch(name, patternSegment, { dot: true, nocase: true });
}

/** The part of an anchored pattern (segments) that applies below `searchRoot`, which lies under its root. */
function patternBelow(segments: string[], below: string[]): string[] {
  let index = 0;
  for (const name of below) {
    const segment = segments[index];
    // The pattern named an ancestor of the search root (or a `dir/` did): all of it is covered.
    if (segment === undefined || (segment === "" && index === segments.length - 1)) return ["**"];
    if (segment === "**") return segments.slice(index);
    if (!segmentMatches(segment, name)) return [];
    index++;
  }
  const rest = segments.slice(index);
  return rest.length === 0 || (rest.length === 1 && rest[0] === "") ? ["**"] : rest;
}

function globsForRule(rule: CompiledPathRule, searchRoot: string): string[] {
  if (rule.anyDepth) return [rule.pattern];
  const body = rule.pattern.replace(/^\//, "");
  if (isPathWithin(rule.root, searchRoot)) {
    const relRoot = relative(searchRoot, rule.root);
    const prefix = relRoot === "" ? "" : `${relRoot.split(sep).join("/")}/`;
    return [`/${prefix}${body}`];
  }
  if (!isPathWithin(searchRoot, rule.root)) return [];
  const rest = patternBelow(body.split("/"), relative(rule.root, searchRoot).split(sep));
  if (rest.length === 0) return [];
  return rest[0] === "**" ? [rest.join("/")] : [`/${rest.join("/")}`];
}

/** One rule as gitignore-style globs relative to each form (given and resolved) of a folder. */
function ruleGlobsBelow(
  rule: PermissionRule,
  folder: string,
  permissionContext: ToolPermissionContext,
): string[] {
  const content = rule.value.ruleContent;
  if (content === undefined || validatePathRuleContent(content) !== undefined) return ["**"];
  const home = permissionContext.caller.home;
  const roots = new Set([toAbsolutePath(folder, permissionContext.projectRoot, home)]);
  for (const root of [...roots]) roots.add(pathForms(root, root, home).resolved);
  const compiled = compilePathRule(content, rule.source, permissionContext);
  const ruleRoots = new Set([compiled.root, pathForms(compiled.root, compiled.root, home).resolved]);
  const globs = new Set<string>();
  for (const ruleRoot of ruleRoots) {
    for (const root of roots) {
      for (const glob of globsForRule({ ...compiled, root: ruleRoot }, root)) globs.add(glob);
    }
  }
  return [...globs];
}

/**
 * Read deny rules as gitignore-style globs relative to a search root, so search tools can exclude
 * denied files from the search itself (`rg --glob '!<glob>'` run with cwd = searchRoot). A leading "/"
 * anchors at the search root; the globs may over-exclude, never under-exclude. A blanket `Read` deny gives ["**"].
 */
export function readDenyGlobs(permissionContext: ToolPermissionContext, searchRoot: string): string[] {
  const globs = new Set<string>();
  for (const rule of rulesNaming(permissionContext, "deny", PATH_RULE_NAMES_BY_ACCESS.read)) {
    const content = rule.value.ruleContent;
    if (content === undefined || validatePathRuleContent(content) !== undefined) return ["**"];
    for (const glob of ruleGlobsBelow(rule, searchRoot, permissionContext)) globs.add(glob);
  }
  return [...globs];
}

/**
 * Whether a rule may cover something inside `folder` (a recursive read of it would reach it). A rule
 * naming one fixed path below the folder reaches it only if that path exists; patterns with wildcards
 * may match anything, so they reach every folder they apply to.
 */
export function pathRuleReachesInto(
  rule: PermissionRule,
  folder: string,
  permissionContext: ToolPermissionContext,
): boolean {
  const content = rule.value.ruleContent;
  if (content === undefined) return true;
  if (pathRuleMatches(content, rule.source, rule.behavior, folder, permissionContext, folder)) return true;
  const absolute = toAbsolutePath(folder, permissionContext.projectRoot, permissionContext.caller.home);
  if (!isDirectory(absolute)) return false;
  return ruleGlobsBelow(rule, absolute, permissionContext).some((glob) => {
    if (!glob.startsWith("/")) return true;
    // The fixed folders an anchored glob starts with must exist for it to match anything below.
    const fixed: string[] = [];
    for (const segment of glob.slice(1).replace(/\/$/, "").split("/")) {
      if (/[*?[\\]/.test(segment)) break;
      fixed.push(segment);
    }
    return fixed.length === 0 || lstatOrUndefined(join(absolute, ...fixed)) !== undefined;
  });
}
