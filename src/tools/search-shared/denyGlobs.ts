// Read deny rules as exclusion globs rebased onto a search root, so denied files are left out of the
// search itself instead of filtered afterwards. A rule is a gitignore pattern anchored at its own root
// (DESIGN.md, path rules); both the given and the symlink-resolved forms of both roots are considered.
import { homedir } from "node:os";
import { posix, relative, resolve, sep } from "node:path";
import picomatch from "picomatch";
import { listRules } from "../../permissions/matchers.ts";
import { isPathWithin, resolveSymlinks } from "../../permissions/paths.ts";
import { formatRuleValue } from "../../permissions/rules.ts";
import type { PermissionRule } from "../../permissions/types.ts";
import type { ToolPermissionContext } from "../../tool/context.ts";

/** The rule family whose deny rules hide files from the search tools. */
const READ_RULE = "Read";

export interface DenyGlobs {
  /** Gitignore-syntax globs relative to the search root, anchored with a leading "/" ("/a/**", "/**\/.env"). */
  patterns: string[];
  /** The rule that denies the search root itself (or a folder above it), when one does. */
  rootDeniedBy?: string;
}

interface AnchoredRule {
  root: string;
  segments: string[];
}

const ALL = "all" as const;

/** Where a rule's pattern is anchored and its segments; unanchored patterns get a leading `**`. */
export function anchorRule(
  content: string,
  rule: PermissionRule,
  context: ToolPermissionContext,
): AnchoredRule {
  let root: string;
  let body: string;
  let anchored = true;
  if (content.startsWith("//")) {
    root = "/";
    body = content.slice(2);
  } else if (content === "~" || content.startsWith("~/")) {
    root = homedir();
    body = content.slice(2);
  } else if (content.startsWith("/")) {
    root = context.ruleRoots[rule.source] ?? context.projectRoot;
    body = content.slice(1);
  } else if (content.startsWith("./")) {
    root = context.projectRoot;
    body = content.slice(2);
  } else {
    root = context.projectRoot;
    body = content;
    // gitignore: a pattern with no slash but a trailing one matches at any depth.
    anchored = body.replace(/\/+$/, "").includes("/");
  }
  const segments = posix
    .normalize(body || ".")
    .split("/")
    .filter((segment) => segment !== "" && segment !== ".");
  while (segments[0] === "..") {
    root = resolve(root, "..");
    segments.shift();
  }
  if (segments.length === 0) return { root, segments: ["**"] };
  return { root, segments: anchored ? segments : ["**", ...segments] };
}

const segmentMatchers = new Map<string, (segment: string) => boolean>();

function segmentMatches(patternSegment: string, segment: string): boolean {
  if (patternSegment === segment) return true;
  let matcher = segmentMatchers.get(patternSegment);
  if (!matcher) {
    matcher = picomatch(patternSegment, { dot: true });
    if (segmentMatchers.size > 1_000) segmentMatchers.clear();
    segmentMatchers.set(patternSegment, matcher);
  }
  return matcher(segment);
}

/**
 * The pattern's remainder for paths below a folder `prefix` segments under the rule root: every way
 * the pattern's leading segments can consume the prefix. ALL when the pattern covers the folder itself.
 */
export function rebaseSegments(
  pattern: readonly string[],
  prefix: readonly string[],
): string[][] | typeof ALL {
  if (pattern.length === 0) return ALL;
  if (prefix.length === 0) return pattern.length === 1 && pattern[0] === "**" ? ALL : [[...pattern]];
  const [head, ...rest] = pattern as [string, ...string[]];
  const [first, ...below] = prefix as [string, ...string[]];
  if (head === "**") {
    const skip = rebaseSegments(rest, prefix);
    if (skip === ALL) return ALL;
    const consume = rebaseSegments(pattern, below);
    if (consume === ALL) return ALL;
    return [...skip, ...consume];
  }
  return segmentMatches(head, first) ? rebaseSegments(rest, below) : [];
}

function splitRelative(from: string, to: string): string[] {
  return relative(from, to).split(sep).filter(Boolean);
}

/** Read deny rules of the session, as exclusions for a search rooted at `searchRoot` (absolute). */
export function readDenyGlobs(context: ToolPermissionContext, searchRoot: string): DenyGlobs {
  const patterns = new Set<string>();
  const searchForms = [...new Set([searchRoot, resolveSymlinks(searchRoot)])];
  for (const rule of listRules(context, "deny")) {
    if (rule.value.toolName !== READ_RULE) continue;
    const ruleText = formatRuleValue(rule.value);
    // A blanket Read deny hides every file.
    if (rule.value.ruleContent === undefined) return { patterns: [], rootDeniedBy: ruleText };
    const anchoredRule = anchorRule(rule.value.ruleContent, rule, context);
    for (const ruleRoot of new Set([anchoredRule.root, resolveSymlinks(anchoredRule.root)])) {
      for (const root of searchForms) {
        if (isPathWithin(root, ruleRoot)) {
          const rebased = rebaseSegments(anchoredRule.segments, splitRelative(ruleRoot, root));
          if (rebased === ALL) return { patterns: [], rootDeniedBy: ruleText };
          for (const segments of rebased) patterns.add(`/${segments.join("/")}`);
        } else if (isPathWithin(ruleRoot, root)) {
          patterns.add(`/${[...splitRelative(root, ruleRoot), ...anchoredRule.segments].join("/")}`);
        }
      }
    }
  }
  return { patterns: [...patterns] };
}
