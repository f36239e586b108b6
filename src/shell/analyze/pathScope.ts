// What path validation carries through one command line: where the shell may be, what it found, the
// permission rules that speak about paths, and what the disk answered (asked once per analysis).

import { PATH_RULE_NAMES_BY_ACCESS } from "../../permissions/pathRules.ts";
import { isInWorkingDirectories, protectedPathReason, remembered } from "../../permissions/paths.ts";
import { rulesNaming } from "../../permissions/ruleIndex.ts";
import type { PermissionRule } from "../../permissions/types.ts";
import type { ToolPermissionContext } from "../../tool/context.ts";
import type { ExpandOptions } from "./expand.ts";
import type { Repository } from "./gitRepository.ts";

export interface Finding {
  check: string;
  reason: string;
  /** Holds in every mode, bypass included. */
  safety: boolean;
  /** A permission rule decided: deny makes the verdict deny, ask makes it an ask in every mode. */
  rule?: PermissionRule;
}

export type PathAccess = "read" | "write" | "cd";

export interface PathRules {
  deny: readonly PermissionRule[];
  ask: readonly PermissionRule[];
}

export interface Scope {
  context: ToolPermissionContext;
  /** Directories the shell may be in. */
  cwds: string[];
  /** After `cd -` and the like: relative paths cannot be judged. */
  cwdUnknown: boolean;
  /** Report only findings that ask in every mode (used on commands that are already too complex). */
  safetyOnly: boolean;
  /** An earlier command of the line may have created or removed files (globs then are unknown). */
  filesMayChange: boolean;
  /** An earlier command changed how globs match (shopt, set, GLOBIGNORE=...): which one. */
  globRulesChanged?: string;
  /** An earlier command changed how cd works (shopt -s cdable_vars, set -P): which one. */
  cdRulesChanged?: string;
  /** Variables the path checks read (HOME, CDPATH...) that an earlier command of the line may have set: what set each. */
  variables: Map<string, string>;
  /** An earlier command that may have set any variable (eval, source, a nameref). */
  anyVariable?: string;
  /** Paths an earlier command of the line moved, linked or unpacked: what they hold now is unknown. */
  relinked: string[];
  /** Paths the command being judged writes (collected to become `relinked`). */
  writing: string[];
  findings: Finding[];
  /** Paths already judged (same access, path and base): checks touch the disk, so once is enough. */
  checked: Set<string>;
  rules: { read: PathRules; write: PathRules };
  inside: Map<string, boolean>;
  protectedReason: Map<string, string | undefined>;
  /** Where git starts for each git command of the line (its -C options applied), found once. */
  gitStarts: Map<object, string[] | undefined>;
  /** The repository git finds from each folder, found once. */
  repositories: Map<string, Repository | undefined>;
}

function rulesNamed(context: ToolPermissionContext, names: readonly string[]): PathRules {
  return { deny: rulesNaming(context, "deny", names), ask: rulesNaming(context, "ask", names) };
}

export function createScope(
  context: ToolPermissionContext,
  cwd: string,
  options: { safetyOnly?: boolean } = {},
): Scope {
  return {
    context,
    cwds: [cwd],
    cwdUnknown: false,
    safetyOnly: options.safetyOnly ?? false,
    filesMayChange: false,
    variables: new Map(),
    relinked: [],
    writing: [],
    findings: [],
    checked: new Set(),
    rules: {
      read: rulesNamed(context, PATH_RULE_NAMES_BY_ACCESS.read),
      write: rulesNamed(context, PATH_RULE_NAMES_BY_ACCESS.write),
    },
    inside: new Map(),
    protectedReason: new Map(),
    gitStarts: new Map(),
    repositories: new Map(),
  };
}

/** What may have set `name` earlier in the line (or in front of this command), or undefined. */
export function variableChange(
  scope: Scope,
  name: string,
  prefix?: ReadonlyArray<{ name: string }>,
): string | undefined {
  if (prefix?.some((assignment) => assignment.name === name)) return `${name}= in front of the command`;
  return scope.variables.get(name) ?? scope.anyVariable;
}

/** How a word is expanded at this point of the line, from `cwd`. */
export function expansionOptions(scope: Scope, cwd: string): ExpandOptions {
  const home = variableChange(scope, "HOME");
  return {
    cwd,
    home: scope.context.caller.home,
    filesMayChange: scope.filesMayChange,
    ...(scope.globRulesChanged ? { globRulesChanged: scope.globRulesChanged } : {}),
    ...(home ? { homeChanged: home } : {}),
  };
}

/** Whether Read (or Edit) rules could be evaded by a path the analysis cannot know. */
export function hasPathRules(scope: Scope, access: PathAccess): boolean {
  if (access === "cd") return false;
  const rules = scope.rules[access];
  return rules.deny.length > 0 || rules.ask.length > 0;
}

export function add(scope: Scope, finding: Finding): void {
  if (scope.safetyOnly && !finding.safety) return;
  if (scope.findings.some((known) => known.check === finding.check && known.reason === finding.reason))
    return;
  scope.findings.push(finding);
}

/** Inside the working directories; `abs` is absolute. */
export function isInside(abs: string, scope: Scope): boolean {
  return remembered(scope.inside, abs, () => isInWorkingDirectories(abs, scope.context));
}

/** protectedPathReason for an absolute path (the base only matters for relative ones). */
export function protectedReasonOf(abs: string, base: string, scope: Scope): string | undefined {
  return remembered(scope.protectedReason, abs, () => protectedPathReason(abs, base, scope.context));
}
