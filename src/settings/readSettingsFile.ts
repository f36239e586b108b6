// Reading one settings file: JSON syntax, the shape, rule strings and hook matchers, each error naming
// file:line:column. Keel refuses to start on a half-read policy, so every problem here is fatal.
import { readFileSync, statSync } from "node:fs";
import type * as z from "zod";
import { parseRuleValue, RuleParseError } from "../permissions/rules.ts";
import { parseContext } from "../tool/parseContext.ts";
import { JsonSyntaxError, type ParsedJson, parseJsonWithPositions, positionOf } from "./jsonPositions.ts";
import { unknownHookEventWarnings, unknownKeyWarnings } from "./knownKeys.ts";
import { type SettingsFile, settingsFileSchema } from "./schema.ts";
import {
  type PassedCheck,
  recallCheck,
  rememberCheck,
  rememberedChecksFolder,
} from "./settingsCheckCache.ts";

export interface SettingsProblem {
  file: string;
  line: number;
  column: number;
  /** The JSON path of the bad value, e.g. permissions.allow[2]. */
  path: string;
  message: string;
}

export class SettingsError extends Error {
  readonly code = "settings_invalid";
  readonly problems: SettingsProblem[];

  constructor(
    problems: SettingsProblem[],
    advice = "Fix the settings file (or move it away); Keel does not start with a half-read policy.",
  ) {
    const lines = problems.map(
      (p) => `${p.file}:${p.line}:${p.column}: ${p.path ? `${p.path}: ` : ""}${p.message}`,
    );
    // One problem is one line (the advice after it); several are a list, then the advice.
    super(
      lines.length === 1
        ? `${lines[0]}${/[.!?]$/.test(lines[0] ?? "") ? "" : "."} ${advice}`
        : `${lines.join("\n")}\n${advice}`,
    );
    this.name = "SettingsError";
    this.problems = problems;
  }
}

export interface ReadSettings {
  path: string;
  settings: SettingsFile;
  /** Problems that do not stop Keel (a rule its matcher finds odd). */
  warnings: string[];
}

export function formatJsonPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(String(part))) text += text === "" ? String(part) : `.${String(part)}`;
    else text += `[${JSON.stringify(String(part))}]`;
  }
  return text;
}

/** Why a rule's specifier is malformed for the tool it names (the tool's own matcher knows), or undefined. */
export type RuleContentCheck = (toolName: string, content: string) => string | undefined;

/** Why no tool answers to a rule's tool name (with the likely intended one), or undefined. */
export type RuleToolNameCheck = (toolName: string) => string | undefined;

export interface ReadSettingsOptions {
  /** Checks rule specifiers; without it only the rule syntax is checked. */
  checkRuleContent?: RuleContentCheck;
  /** Checks rule tool names (a typo like `Raed` matches nothing); without it they are not checked. */
  checkRuleToolName?: RuleToolNameCheck;
  /**
   * Where passed shape checks are kept (settingsCheckCache.ts); false keeps none. By default the CLI's
   * compile-cache folder, when it has one.
   */
  rememberChecksIn?: string | false;
}

/**
 * The most a settings file (or `.mcp.json`, or an `--mcp-config` file) may hold: 1 MiB, about 25,000
 * rules, hundreds of times what real settings hold. Every call of every surface reads them afresh.
 */
export const MAX_SETTINGS_FILE_BYTES = 1024 * 1024;

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Why a file of this size is refused, or undefined when it is within the bound. */
export function settingsFileTooLarge(bytes: number): string | undefined {
  if (bytes <= MAX_SETTINGS_FILE_BYTES) return undefined;
  return (
    `the file is ${megabytes(bytes)}, over the 1 MiB a settings file may hold: write fewer, broader rules ` +
    "(one Bash(npm run test:*) instead of a rule per script, Read(./secrets/**) instead of a rule per file)"
  );
}

/** A settings file's text; undefined when it does not exist. Throws SettingsError (unreadable, too large). */
export function readSettingsText(path: string): string | undefined {
  const cannot = (message: string) =>
    new SettingsError([{ file: path, line: 1, column: 1, path: "", message }]);
  try {
    const stats = statSync(path);
    const tooLarge = stats.isFile() ? settingsFileTooLarge(stats.size) : undefined;
    if (tooLarge) throw cannot(tooLarge);
    return readFileSync(path, "utf8");
  } catch (error) {
    if (error instanceof SettingsError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw cannot(`cannot be read (${code ?? String(error)})`);
  }
}

/** Reads and checks a settings file; undefined when it does not exist. Throws SettingsError. */
export function readSettingsFile(path: string, options: ReadSettingsOptions = {}): ReadSettings | undefined {
  const text = readSettingsText(path);
  return text === undefined ? undefined : parseSettingsText(text, path, options);
}

/** The text as JSON with the position of every value; a syntax error is a SettingsError at its place. */
export function parseSettingsJson(text: string, file: string): ParsedJson {
  try {
    return parseJsonWithPositions(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const { line, column } = error.position;
    throw new SettingsError([{ file, line, column, path: "", message: `invalid JSON: ${error.message}` }]);
  }
}

/** Checks settings text as if read from `file`. Throws SettingsError. */
export function parseSettingsText(
  text: string,
  file: string,
  options: ReadSettingsOptions = {},
): ReadSettings {
  const folder = options.rememberChecksIn === undefined ? rememberedChecksFolder() : options.rememberChecksIn;
  const checked = (folder && recallCheck(folder, file, text)) || checkShape(text, file, folder);
  // Positions are found again only for a problem below (the text passed the shape check already).
  let parsed: ParsedJson | undefined;
  const problem = (path: readonly PropertyKey[], message: string): SettingsProblem => {
    parsed ??= parseSettingsJson(text, file);
    return problemAt(parsed, file, path, message);
  };
  const warnings = [...checked.warnings];
  const problems = [
    ...checkRules(checked.settings, problem, warnings, options),
    ...checkHooks(checked.settings, problem),
  ];
  if (problems.length > 0) throw new SettingsError(problems);
  return { path: file, settings: checked.settings, warnings };
}

/** JSON syntax, the schema and unknown keys: what depends on the text alone, kept when it passed. */
function checkShape(text: string, file: string, folder: string | false | undefined): PassedCheck {
  const parsed = parseSettingsJson(text, file);
  const result = settingsFileSchema().safeParse(parsed.value, parseContext());
  if (!result.success)
    throw new SettingsError(
      result.error.issues
        .slice(0, 10)
        .map((issue) => problemAt(parsed, file, issue.path, describeIssue(issue))),
    );
  const passed = {
    settings: result.data,
    warnings: [...unknownKeyWarnings(parsed, file), ...unknownHookEventWarnings(parsed, file)],
  };
  if (folder) rememberCheck(folder, file, text, passed);
  return passed;
}

/** A problem at the place of `path` in the parsed text. */
function problemAt(
  parsed: ParsedJson,
  file: string,
  path: readonly PropertyKey[],
  message: string,
): SettingsProblem {
  const { line, column } = positionOf(parsed, path);
  return { file, line, column, path: formatJsonPath(path), message };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_union" && "discriminator" in issue) return issue.message;
  if (issue.path.length === 0 && issue.code === "invalid_type")
    return "the settings file must hold a JSON object";
  return issue.message;
}

type ProblemAt = (path: readonly PropertyKey[], message: string) => SettingsProblem;

function checkRules(
  settings: SettingsFile,
  problem: ProblemAt,
  warnings: string[],
  checks: ReadSettingsOptions,
): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  for (const behavior of ["allow", "deny", "ask"] as const) {
    settings.permissions?.[behavior]?.forEach((rule, index) => {
      const path = ["permissions", behavior, index];
      try {
        const value = parseRuleValue(rule);
        const invalid =
          checks.checkRuleToolName?.(value.toolName) ??
          (value.ruleContent === undefined
            ? undefined
            : checks.checkRuleContent?.(value.toolName, value.ruleContent));
        if (invalid) {
          const at = problem(path, invalid);
          warnings.push(`${at.file}:${at.line}:${at.column}: rule "${rule}": ${invalid}`);
        }
      } catch (error) {
        problems.push(problem(path, error instanceof RuleParseError ? error.message : String(error)));
      }
    });
  }
  return problems;
}

function checkHooks(settings: SettingsFile, problem: ProblemAt): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
    groups.forEach((group, groupIndex) => {
      const matcher = group.matcher ?? "";
      if (matcher !== "" && matcher !== "*" && !/^[A-Za-z0-9_|]+$/.test(matcher)) {
        try {
          new RegExp(matcher);
        } catch (error) {
          problems.push(
            problem(
              ["hooks", event, groupIndex, "matcher"],
              `not a valid regular expression: ${String(error)}`,
            ),
          );
        }
      }
      group.hooks.forEach((handler, handlerIndex) => {
        const rule = (handler as { if?: unknown }).if;
        if (typeof rule !== "string") return;
        try {
          parseRuleValue(rule);
        } catch (error) {
          problems.push(
            problem(
              ["hooks", event, groupIndex, "hooks", handlerIndex, "if"],
              String((error as Error).message),
            ),
          );
        }
      });
    });
  }
  return problems;
}
