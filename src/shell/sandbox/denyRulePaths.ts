// The session's Read and Edit deny rules as the paths a sandbox enforces, so a program the analyzer
// cannot see into (or a hard link, which no path check can tell) still cannot reach them. Shared by
// the OS sandbox (sandbox.ts) and the confinement (confinementLayout.ts).
import { join, resolve } from "node:path";
import {
  type CompiledPathRule,
  compilePathRule,
  PATH_RULE_NAMES_BY_ACCESS,
  validatePathRuleContent,
} from "../../permissions/pathRules.ts";
import { resolveSymlinks } from "../../permissions/paths.ts";
import { contentRulesNaming } from "../../permissions/ruleIndex.ts";
import { type ToolPermissionContext, workingDirectories } from "../../tool/context.ts";

/** A path as configured and with its symlinks resolved (each once). */
export function withResolvedForms(paths: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const path of paths) {
    forms.add(resolve(path));
    forms.add(resolveSymlinks(resolve(path)));
  }
  return [...forms];
}

/** The compiled Read (`access` "read") or Edit deny rules with a valid path specifier; blanket rules are left out. */
export function compiledDenyRules(
  context: ToolPermissionContext,
  access: "read" | "write",
): CompiledPathRule[] {
  const compiled: CompiledPathRule[] = [];
  for (const rule of contentRulesNaming(context, "deny", PATH_RULE_NAMES_BY_ACCESS[access])) {
    const content = rule.value.ruleContent;
    if (content === undefined || validatePathRuleContent(content) !== undefined) continue;
    compiled.push(compilePathRule(content, rule.source, context));
  }
  return compiled;
}

/**
 * The deny rules as sandbox paths: reads as globs (the runtime expands them when it wraps a command),
 * writes as fixed paths only (bubblewrap binds what exists), so a wildcard Edit deny rule is left to
 * the analyzer.
 */
export function pathsFromDenyRules(context: ToolPermissionContext, access: "read" | "write"): string[] {
  const paths = new Set<string>();
  for (const compiled of compiledDenyRules(context, access)) {
    const body = compiled.pattern.replace(/^\//, "").replace(/\/$/, "");
    const roots = compiled.anyDepth ? [compiled.root, ...workingDirectories(context)] : [compiled.root];
    for (const root of withResolvedForms(roots)) {
      const path = compiled.anyDepth ? join(root, "**", body) : join(root, body === "**" ? "" : body);
      if (access === "read") paths.add(path);
      else if (!/[*?[]/.test(path.replace(/\/\*\*$/, ""))) paths.add(path.replace(/\/\*\*$/, ""));
    }
  }
  return [...paths].sort();
}
