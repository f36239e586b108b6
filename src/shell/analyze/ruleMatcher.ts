// The Bash content-rule matcher. Deny and ask rules match if ANY command the string can run matches
// (nested, wrapped, obfuscated); allow rules match only a fully understood command whose every part
// is covered by some allow rule or is read-only.
import type { RuleContentMatcher } from "../../permissions/matchers.ts";
import { contentRulesNaming } from "../../permissions/ruleIndex.ts";
import type { PermissionRule } from "../../permissions/types.ts";
import type { ToolPermissionContext } from "../../tool/context.ts";
import { isReadOnlyPart } from "./analyze.ts";
import {
  type BashPattern,
  globProgramForm,
  parseBashPattern,
  patternMatchesArgv,
  patternMatchesArgvLoosely,
  patternMatchesText,
  tokenizeSpecifier,
  validateBashSpecifier,
} from "./bashRules.ts";
import { viewCommand } from "./commandView.ts";
import { dangerousOptions } from "./dangerousOptions.ts";
import { deepScan } from "./deepCommands.ts";
import { commandFormsForDenyRules } from "./denyForms.ts";
import { braceExpand } from "./expand.ts";
import { understoodCommands } from "./grammar/frontEnd.ts";
import { initBashParser } from "./grammar/parse.ts";
import { commandOutputs } from "./outputs.ts";
import { writesThroughRedirect } from "./pathValidation.ts";
import { commandForAllowRules } from "./wrappers.ts";

const patterns = new Map<string, BashPattern>();

function patternOf(content: string): BashPattern {
  let pattern = patterns.get(content);
  if (!pattern) {
    pattern = parseBashPattern(content);
    if (patterns.size > 1_000) patterns.clear();
    patterns.set(content, pattern);
  }
  return pattern;
}

/** Deny/ask: any visible command form, or the text itself, matches. */
export function denyRuleMatches(command: string, content: string): boolean {
  const pattern = patternOf(content);
  if (patternMatchesText(pattern, command)) return true;
  if (command.includes("\\\n") && patternMatchesText(pattern, command.replace(/\\\n/g, ""))) return true;
  try {
    const forms = deepScan(command).forms;
    return [...forms, ...(forms.length === 0 ? textForms(command) : [])].some((form) => {
      const candidate = globProgramForm(pattern, form) ?? form;
      return patternMatchesArgv(pattern, candidate) || patternMatchesArgvLoosely(pattern, candidate);
    });
  } catch {
    return true;
  }
}

/**
 * When the grammar finds no command at all (`{rm,-rf,src}` reads to it as a broken group), the text
 * split at its operators (outside quotes) and brace-expanded, for deny and ask rules only.
 */
function textForms(command: string): string[][] {
  const segments: string[] = [];
  let current = "";
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const char = command[i] as string;
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === "\\") current += command[i++] ?? "";
    else if (/[;&|\n]/.test(char)) {
      segments.push(current);
      current = "";
      continue;
    }
    current += char;
  }
  segments.push(current);
  return segments.flatMap((segment) => {
    const words = tokenizeSpecifier(segment).flatMap((word) => braceExpand(word) ?? [word]);
    return words.length > 0 ? commandFormsForDenyRules(words) : [];
  });
}

/**
 * Allow: the rule covers at least one part, every part is covered by some allow rule or is read-only,
 * and no covered part writes a file through a redirect.
 */
export function allowRuleMatches(command: string, content: string, allContents: readonly string[]): boolean {
  const commands = understoodCommands(command);
  if (!commands) return false;
  const pattern = patternOf(content);
  const others = allContents.map(patternOf);
  let covered = false;
  for (const extracted of commands) {
    const view = viewCommand(extracted);
    const target = commandForAllowRules(extracted.simple.argv, extracted.simple.assignments);
    const byThis = patternMatchesArgv(pattern, target);
    if (byThis || others.some((other) => patternMatchesArgv(other, target))) {
      // A rule names a command, never the files it is told to write (those are judged as writes), nor
      // options that make it run other code or write elsewhere, however they are spelled.
      if (writesThroughRedirect(view) || commandOutputs(view).length > 0) return false;
      if (dangerousOptions(target).length > 0) return false;
      covered ||= byThis;
      continue;
    }
    if (!isReadOnlyPart(view)) return false;
  }
  return covered;
}

function allowContents(context: ToolPermissionContext): string[] {
  return contentRulesNaming(context, "allow", ["Bash"]).map((rule) => rule.value.ruleContent as string);
}

export async function bashRuleMatches(
  command: unknown,
  rule: PermissionRule,
  context: ToolPermissionContext,
): Promise<boolean> {
  const content = rule.value.ruleContent;
  if (content === undefined) return true;
  const failClosed = rule.behavior !== "allow";
  if (typeof command !== "string") return failClosed;
  try {
    await initBashParser();
    if (rule.behavior === "allow") return allowRuleMatches(command, content, allowContents(context));
    return denyRuleMatches(command, content);
  } catch {
    return failClosed;
  }
}

export const bashRuleMatcher: RuleContentMatcher = {
  matches: ({ input, rule, permissionContext }) =>
    bashRuleMatches((input as { command?: unknown } | null)?.command, rule, permissionContext),
  validate: validateBashSpecifier,
};
