// The analyzer's entry point: text checks, one parse, syntax checks, per-command checks, path
// validation, then read-only classification. Anything not fully understood asks.
import { listRules } from "../../permissions/matchers.ts";
import { PATH_RULE_NAMES } from "../../permissions/pathRules.ts";
import { withPathResolutionCache } from "../../permissions/paths.ts";
import type { PermissionRule, RuleSuggestion } from "../../permissions/types.ts";
import type { ToolPermissionContext } from "../../tool/context.ts";
import { type CommandView, viewCommand } from "./commandView.ts";
import { isHarmlessVariable } from "./envVars.ts";
import type { ExtractedCommand } from "./grammar/extractedCommand.ts";
import { isSafetyProblem, readBash, understoodCommands } from "./grammar/frontEnd.ts";
import { initBashParser, isBashParserReady, type SimpleCommand } from "./grammar/parse.ts";
import { type Finding, validatePaths, writesThroughRedirect } from "./pathValidation.ts";
import { isInterpreter } from "./programs.ts";
import { programReadings } from "./programWord.ts";
import { type Classification, classifyCommand } from "./readOnly.ts";
import { COMMAND_CHECKS } from "./security/index.ts";
import { ruleSuggestions } from "./suggestions.ts";

export interface BashVerdict {
  behavior: "allow" | "ask" | "deny" | "passthrough";
  reason: string;
  check?: string;
  parts: SimpleCommand[];
  /** A rule specifier like "npm run test:*", never a blanket Bash. */
  suggestion?: string;
  /** The Read or Edit rule that decided (a deny rule denies; an ask rule asks in every mode). */
  rule?: PermissionRule;
}

export interface AnalyzeOptions {
  cwd: string;
  permissionContext: ToolPermissionContext;
}

/** The verdict plus what the permission layer needs: whether the ask holds in every mode, rule suggestions. */
export interface DetailedVerdict extends BashVerdict {
  safety: boolean;
  suggestions: RuleSuggestion[];
  findings: Finding[];
}

interface Part {
  view: CommandView;
  classification: Classification;
  /** What the checks found on each program the command may run (more than one for a glob name). */
  findings: Finding[];
}

const KIND_ORDER: Classification["kind"][] = ["read-only", "file-write", "other"];

/** One command, judged as every program its name may be (programWord.ts). */
function partOf(extracted: ExtractedCommand, cwd: string): Part {
  const view = viewCommand(extracted);
  const reading = programReadings(view, cwd);
  if (reading.kind === "unknown")
    return {
      view,
      classification: { ...classify(view), kind: "other", reason: reading.reason },
      findings: [{ check: "unknown-program", reason: reading.reason, safety: true }],
    };
  const [first, ...rest] = reading.views.map((candidate) => ({
    view: candidate,
    classification: classify(candidate),
  }));
  const chosen = rest.reduce(
    (worst, next) =>
      KIND_ORDER.indexOf(next.classification.kind) > KIND_ORDER.indexOf(worst.classification.kind)
        ? next
        : worst,
    first as { view: CommandView; classification: Classification },
  );
  return { ...chosen, findings: reading.views.flatMap(commandFindings) };
}

/** Commands whose input words (from xargs) can only be strings, never files to read. */
const NO_PATH_TARGETS = new Set(["echo", "printf", "basename", "dirname", "true"]);

function classify(view: CommandView): Classification {
  const classification = classifyCommand(view.argv);
  // Fail closed on variables: only the known-harmless ones (LANG, TZ, NO_COLOR...) keep a command read-only.
  const unknownVariable = view.assignments.find((assignment) => !isHarmlessVariable(assignment.name));
  if (unknownVariable && classification.kind === "read-only")
    return {
      ...classification,
      kind: "other",
      reason: `${unknownVariable.name}= in front of ${view.argv[0] ?? "the command"} may change what it does`,
    };
  if (view.inputArgs && classification.kind !== "other" && !NO_PATH_TARGETS.has(view.argv[0] ?? "")) {
    return {
      ...classification,
      kind: "other",
      reason: `xargs gives ${view.argv[0]} file names read from its input`,
    };
  }
  return classification;
}

function commandFindings(view: CommandView): Finding[] {
  const findings: Finding[] = [];
  for (const check of COMMAND_CHECKS) {
    const reason = check.run(view);
    if (reason !== undefined) findings.push({ check: check.id, reason, safety: check.severity === "safety" });
  }
  return findings;
}

/** Safety checks (asking in every mode) over commands the full analysis does not reach. */
function safetyScan(
  commands: readonly ExtractedCommand[],
  cwd: string,
  context: ToolPermissionContext,
): Finding[] {
  if (commands.length === 0) return [];
  const parts: Part[] = commands.map((extracted) => partOf(extracted, cwd));
  const findings = parts.flatMap((part) => part.findings.filter((finding) => finding.safety));
  return [...findings, ...validatePaths(parts, cwd, context, { safetyOnly: true })];
}

/**
 * Deny or ask rules a command the analysis cannot fully read could slip past: Bash content rules
 * (matched against the commands it can see) and Read/Edit rules (matched against the paths it can
 * see). With any of them, what is too complex to check against them asks in every mode.
 */
function hasRestrictingRules(context: ToolPermissionContext): boolean {
  return (["deny", "ask"] as const).some((behavior) =>
    listRules(context, behavior).some(
      (rule) =>
        (rule.value.toolName === "Bash" && rule.value.ruleContent !== undefined) ||
        PATH_RULE_NAMES.includes(rule.value.toolName),
    ),
  );
}

function verdictFrom(findings: Finding[], parts: SimpleCommand[]): DetailedVerdict | undefined {
  const denied = findings.find((finding) => finding.rule?.behavior === "deny");
  const first = denied ?? findings.find((finding) => finding.safety) ?? findings[0];
  if (!first) return undefined;
  return {
    behavior: denied ? "deny" : "ask",
    reason: first.reason,
    check: first.check,
    parts,
    safety: first.safety,
    suggestions: [],
    findings,
    ...(first.rule ? { rule: first.rule } : {}),
  };
}

/** Synchronous analysis; the parser must be initialised. */
export function analyzeBashCommandNow(command: string, options: AnalyzeOptions): DetailedVerdict {
  return withPathResolutionCache(() => analyzeNow(command, options));
}

function analyzeNow(command: string, options: AnalyzeOptions): DetailedVerdict {
  const { cwd, permissionContext: context } = options;
  const { problems, extraction, hidden } = readBash(command);
  const strict = hasRestrictingRules(context);
  const findings: Finding[] = problems.map((problem) => ({
    ...problem,
    safety: strict || isSafetyProblem(problem),
  }));
  const simpleParts = extraction.commands.map((extracted) => extracted.simple);
  // Safety findings hold in every mode, so look for them everywhere, also inside bash -c strings.
  findings.unshift(...safetyScan(hidden, cwd, context));

  if (problems.length > 0) {
    const tooComplex = verdictFrom(findings, simpleParts) as DetailedVerdict;
    if (tooComplex.safety || !context.sandbox.enabled || !context.sandbox.autoAllowBashIfSandboxed)
      return tooComplex;
    if (strict) return tooComplex;
    return {
      behavior: "allow",
      reason: "the OS sandbox contains it",
      parts: simpleParts,
      safety: false,
      suggestions: [],
      findings,
    };
  }

  const parts: Part[] = extraction.commands.map((extracted) => partOf(extracted, cwd));
  findings.push(
    ...parts.flatMap((part) =>
      part.findings.map((finding) => (strict ? { ...finding, safety: true } : finding)),
    ),
  );
  if (strict)
    findings.push(
      ...parts.flatMap((part) => (part.classification.kind === "read-only" ? [] : unseenCode(part.view))),
    );
  findings.push(
    ...validatePaths(parts, cwd, context, { operators: extraction.operators }).map((finding) =>
      strict && CODE_BEHIND_PATHS.has(finding.check) ? { ...finding, safety: true } : finding,
    ),
  );
  const asked = verdictFrom(findings, simpleParts);
  if (asked) return asked;
  return decideUnderstood(parts, simpleParts, context);
}

/**
 * Path findings that mean code runs which no rule can be checked against: a repository git does not
 * find in a protected .git folder runs what its config names (core.fsmonitor, diff.external...).
 */
const CODE_BEHIND_PATHS = new Set(["git-repository"]);

const SYSTEM_BIN = /^\/(usr\/(local\/)?)?s?bin\//;

/**
 * With deny or ask rules to honour, code the rules cannot see: a script handed to a shell or an
 * interpreter (`sh x.sh`, `python3 tool.py`), or a program run by a path outside the system's bin
 * folders (`./del`, which may be a copy of anything). Such a command asks in every mode.
 */
function unseenCode(view: CommandView): Finding[] {
  const name = view.argv[0] ?? "";
  const byPath = name.includes("/") && !SYSTEM_BIN.test(name);
  const script = isInterpreter(name.slice(name.lastIndexOf("/") + 1)) && view.argv.length > 1;
  if (!byPath && !script) return [];
  return [
    {
      check: "unseen-code",
      reason: `${name} runs code your deny and ask rules cannot be checked against`,
      safety: true,
    },
  ];
}

function decideUnderstood(
  parts: Part[],
  simpleParts: SimpleCommand[],
  context: ToolPermissionContext,
): DetailedVerdict {
  const base = { parts: simpleParts, safety: false, findings: [] };
  const readOnly = parts.every(
    (part) => part.classification.kind === "read-only" && !writesThroughRedirect(part.view),
  );
  if (readOnly)
    return {
      ...base,
      behavior: "allow",
      reason: "read-only inside the working directories",
      suggestions: [],
    };
  const fileSystem = parts.every((part) => part.classification.kind !== "other");
  if (context.mode === "acceptEdits" && fileSystem)
    return {
      ...base,
      behavior: "allow",
      reason: "file-system commands inside the working directories (acceptEdits)",
      suggestions: [],
    };
  if (context.sandbox.enabled && context.sandbox.autoAllowBashIfSandboxed)
    return { ...base, behavior: "allow", reason: "the OS sandbox contains it", suggestions: [] };
  const needsApproval = parts.filter(
    (part) => part.classification.kind !== "read-only" || writesThroughRedirect(part.view),
  );
  const { specifiers, suggestions } = ruleSuggestions(needsApproval.map((part) => part.view));
  const first = needsApproval[0];
  const reason =
    first?.classification.kind === "file-write"
      ? `${first.view.argv[0]} changes files`
      : first?.classification.reason ||
        `${first?.view.argv[0] ?? "the command"} writes a file through a redirect`;
  return {
    ...base,
    behavior: "passthrough",
    reason,
    ...(specifiers[0] ? { suggestion: specifiers[0] } : {}),
    suggestions,
  };
}

/** Judges a command for the Bash tool's permission check. */
export async function analyzeBashCommand(command: string, options: AnalyzeOptions): Promise<BashVerdict> {
  await initBashParser();
  const {
    safety: _safety,
    suggestions: _suggestions,
    findings: _findings,
    ...verdict
  } = analyzeBashCommandNow(command, options);
  return verdict;
}

/** For `keel check Bash '{"command": ...}' --json`: the verdict, the parsed parts and the check that fired. */
export async function explainBashCommand(
  command: string,
  options: AnalyzeOptions,
): Promise<{ verdict: BashVerdict; parts: SimpleCommand[]; check?: string }> {
  await initBashParser();
  const detailed = analyzeBashCommandNow(command, options);
  const { safety: _safety, suggestions: _suggestions, findings: _findings, ...verdict } = detailed;
  return { verdict, parts: detailed.parts, ...(detailed.check ? { check: detailed.check } : {}) };
}

/** True only when the parser is ready and every part is an understood read-only command. */
export function isReadOnlyBashCommand(command: string): boolean {
  if (!isBashParserReady()) return false;
  try {
    return understoodCommands(command)?.every((extracted) => isReadOnlyPart(viewCommand(extracted))) ?? false;
  } catch {
    return false;
  }
}

/** One already-parsed part: read-only with nothing flagged (allow rules need not cover it). */
export function isReadOnlyPart(view: CommandView): boolean {
  return (
    commandFindings(view).length === 0 && !writesThroughRedirect(view) && classify(view).kind === "read-only"
  );
}
