// One path argument as bash expands it, resolved against each folder it is relative to and through
// symlinks, and judged: protected, under Read/Edit rules, outside the working directories, or unknown.
import { resolve } from "node:path";
import {
  danglingLinkTarget,
  isPathWithin,
  lstatOrUndefined,
  resolveSymlinks,
} from "../../permissions/paths.ts";
import { workingDirectories } from "../../tool/context.ts";
import type { FollowedLinks } from "./classification.ts";
import { expandWord } from "./expand.ts";
import type { Word } from "./grammar/words.ts";
import { LINK_WALK_BUDGET, walkBelow } from "./linksBelow.ts";
import { checkPathRules } from "./pathRuleFindings.ts";
import {
  add,
  expansionOptions,
  hasPathRules,
  isInside,
  type PathAccess,
  protectedReasonOf,
  type Scope,
} from "./pathScope.ts";
import { REMOVERS } from "./programs.ts";
import { protectedInside } from "./protectedReach.ts";
import { HARMLESS_DEVICES } from "./redirects.ts";
import { criticalRemovalReason } from "./security/dangerousRemoval.ts";

/** A path whose value cannot be known: a write could reach a protected path, a read a ruled one. */
export function unknownPath(
  check: string,
  reason: string,
  access: PathAccess,
  scope: Scope,
  mayNameProtected = true,
): void {
  const safety = (access === "write" && mayNameProtected) || hasPathRules(scope, access);
  add(scope, { check, reason, safety });
}

export function checkAbsolute(
  abs: string,
  base: string,
  access: PathAccess,
  commandName: string,
  scope: Scope,
  recursive = false,
): void {
  if (HARMLESS_DEVICES.test(abs)) return;
  if (access === "write") scope.writing.push(abs);
  const moved = scope.relinked.find((path) => isPathWithin(abs, path));
  if (moved) {
    unknownPath(
      "changed-path",
      `${commandName} uses ${abs}, which ${moved === abs ? "is" : "is inside"} ${moved}, moved or linked earlier in this command; what it holds then is unknown`,
      access === "cd" ? "read" : access,
      scope,
    );
    return;
  }
  // Writing a folder (mv, rm -r, chmod -R) changes everything in it.
  const whole = recursive || (access === "write" && lstatOrUndefined(abs)?.isDirectory() === true);
  const key = `${access}\0${commandName}\0${whole}\0${recursive}\0${abs}\0${base}`;
  if (scope.checked.has(key)) return;
  scope.checked.add(key);
  if (access === "write") {
    const protectedReason = protectedReasonOf(abs, base, scope);
    if (protectedReason)
      add(scope, { check: "protected-path", reason: `writes ${protectedReason}`, safety: true });
    // A write that changes everything in a folder changes the protected entries it holds.
    const held =
      recursive && !protectedReason && !REMOVERS.has(commandName) ? protectedInside(abs, scope) : undefined;
    if (held)
      add(scope, {
        check: "protected-path",
        reason: `${commandName} changes everything in ${abs}, which holds ${held}`,
        safety: true,
      });
    if (REMOVERS.has(commandName)) {
      const critical = criticalRemovalReason(abs, scope.context.caller.home);
      if (critical) add(scope, { check: "dangerous-removal", reason: critical, safety: true });
    }
  }
  checkPathRules(abs, base, access, commandName, scope, whole);
  // A file with more than one name may be the same file as a protected one or one outside (a hard
  // link): no path shows where its other names are, so changing it asks in every mode.
  const stats = access === "write" ? lstatOrUndefined(abs) : undefined;
  if (stats?.isFile() && stats.nlink > 1)
    add(scope, {
      check: "hard-link",
      reason: `${commandName} writes ${abs}, which has ${stats.nlink} names (a hard link may be a protected file or lead outside)`,
      safety: true,
    });
  // A write through a dangling link creates the link's target: name it where it is judged.
  const target = access === "write" ? danglingLinkTarget(abs) : undefined;
  if (!isInside(abs, scope)) {
    const verb = access === "write" ? "writes" : access === "cd" ? "changes directory to" : "reads";
    const where = target && target !== abs ? target : abs;
    add(scope, {
      check: "path-outside-working-dirs",
      reason: `${commandName} ${verb} ${where}, outside the working directories`,
      safety: false,
    });
  }
}

/** Removing a working directory itself (or a folder holding one) is never a routine edit. */
function checkWorkingDirRemoval(abs: string, commandName: string, scope: Scope): void {
  const roots = workingDirectories(scope.context).map((dir) => resolve(dir));
  if (roots.some((root) => isPathWithin(root, abs)))
    add(scope, {
      check: "working-dir-removal",
      reason: `${commandName} would remove the working directory ${abs}`,
      safety: false,
    });
}

export interface PathCheck {
  value: string;
  word: Word | undefined;
  access: PathAccess;
  commandName: string;
  /** Folders the path is relative to (the shell's, or git's after -C). */
  bases: readonly string[];
  recursive?: boolean;
  /** Every file below is opened by name: the links among them lead where they lead. */
  follows?: FollowedLinks;
}

/**
 * A folder whose every file is opened by name (find -exec cat {}, find | xargs wc): each link below it
 * that is opened is a read of where it leads, and names xargs would split are reads of unknown paths.
 */
function checkFollowedLinks(
  abs: string,
  base: string,
  follows: FollowedLinks,
  commandName: string,
  scope: Scope,
): void {
  if (follows.noLinks && !follows.splitNames) return;
  const below = walkBelow(abs, {
    ...(follows.linkName ? { linkName: follows.linkName } : {}),
    oddNames: follows.splitNames,
  });
  if (!below) {
    unknownPath(
      "unknown-target",
      `${commandName} opens every file below ${abs}, too many (over ${LINK_WALK_BUDGET}) to look for links leading out`,
      "read",
      scope,
    );
    return;
  }
  if (below.oddName)
    unknownPath(
      "unknown-target",
      `${commandName} is given ${below.oddName} by xargs, which splits it at blanks (use find -print0 | xargs -0)`,
      "read",
      scope,
    );
  if (!follows.noLinks)
    for (const link of below.links) checkAbsolute(resolveSymlinks(link), base, "read", commandName, scope);
}

export function checkPath(check: PathCheck, scope: Scope): void {
  const { value, word, access, commandName } = check;
  if (value === "" || value === "-") return;
  if (!value.startsWith("/") && !value.startsWith("~") && scope.cwdUnknown) {
    unknownPath(
      "cwd-unknown",
      `${commandName} uses the relative path ${value} after a cd the analyzer cannot follow`,
      access,
      scope,
    );
    return;
  }
  for (const base of check.bases) {
    const expansion = expandWord(word, value, {
      ...expansionOptions(scope, base),
      forWrite: access === "write",
    });
    if (expansion.kind === "unknown") {
      unknownPath(
        expansion.check,
        `${commandName}: ${expansion.reason}`,
        access,
        scope,
        expansion.mayNameProtected,
      );
      return;
    }
    const startsWithGlob = word?.glob === true && /^[*?[]/.test(value);
    for (const match of expansion.globMatches) {
      if (startsWithGlob && match.replace(/^.*\//, "").startsWith("-"))
        add(scope, {
          check: "glob-path",
          reason: `the glob ${value} would match ${match}, which reads as an option`,
          safety: false,
        });
    }
    for (const path of expansion.paths) {
      const abs = resolve(base, path);
      checkAbsolute(abs, base, access, commandName, scope, check.recursive);
      if (check.follows && access === "read")
        checkFollowedLinks(abs, base, check.follows, commandName, scope);
      // The kernel applies `link/..` to the link's target (its parent), not to the text.
      if (/(^|\/)\.\.(\/|$)/.test(path)) {
        const physical = resolveSymlinks(path.startsWith("/") ? path : `${base}/${path}`);
        if (physical !== abs) checkAbsolute(physical, base, access, commandName, scope, check.recursive);
      }
      if (word?.glob !== true && access === "write" && REMOVERS.has(commandName))
        checkWorkingDirRemoval(abs, commandName, scope);
    }
  }
}
