// Read and Edit rules applied to the paths a command reads and writes, as the file tools apply them: a
// deny rule covering the path denies the command, an ask rule asks in every mode, and a recursive read
// of a folder that holds a path such a rule covers asks. (A hard link to an outside file cannot be told
// from a path: the sandbox's deny lists cover that case.)
import { pathRuleMatches, pathRuleReachesInto } from "../../permissions/pathRules.ts";
import { formatRuleValue } from "../../permissions/rules.ts";
import type { PermissionRule } from "../../permissions/types.ts";
import { add, type PathAccess, type Scope } from "./pathScope.ts";

function describe(rule: PermissionRule): string {
  return `the ${rule.source} rule ${rule.behavior} ${formatRuleValue(rule.value)}`;
}

function covers(rule: PermissionRule, abs: string, base: string, scope: Scope): boolean {
  const content = rule.value.ruleContent;
  if (content === undefined) return true;
  return pathRuleMatches(content, rule.source, rule.behavior, abs, scope.context, base);
}

/** One path a command reads or writes (`recursive`: everything below a folder is read). */
export function checkPathRules(
  abs: string,
  base: string,
  access: PathAccess,
  commandName: string,
  scope: Scope,
  recursive = false,
): void {
  if (access === "cd") return;
  const verb = access === "read" ? "reads" : "writes";
  const rules = scope.rules[access];
  for (const rule of [...rules.deny, ...rules.ask]) {
    if (covers(rule, abs, base, scope)) {
      add(scope, {
        check: "path-rule",
        reason: `${commandName} ${verb} ${abs}, which ${describe(rule)} covers`,
        safety: true,
        rule,
      });
    } else if (recursive && pathRuleReachesInto(rule, abs, scope.context)) {
      add(scope, {
        check: "path-rule",
        reason: `${commandName} reads everything in ${abs}, which holds paths ${describe(rule)} covers`,
        safety: true,
      });
    }
  }
}

/**
 * A path given to a program the analyzer does not know: it may read or write it, and all a folder
 * holds (find src -delete, git restore src). A deny rule of either kind naming it denies; a folder
 * holding paths a Read or Edit rule covers asks.
 */
export function checkArgumentRules(abs: string, base: string, commandName: string, scope: Scope): void {
  const { read, write } = scope.rules;
  for (const rule of [...read.deny, ...write.deny, ...read.ask, ...write.ask]) {
    if (rule.value.ruleContent === undefined) continue;
    if (covers(rule, abs, base, scope))
      add(scope, {
        check: "path-rule",
        reason: `${commandName} is given ${abs}, which ${describe(rule)} covers`,
        safety: true,
        rule,
      });
    else if (pathRuleReachesInto(rule, abs, scope.context))
      add(scope, {
        check: "path-rule",
        reason: `${commandName} is given ${abs}, which holds paths ${describe(rule)} covers`,
        safety: true,
      });
  }
}
