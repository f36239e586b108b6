// The analyzer's entry point: text checks, one parse, syntax checks, per-command checks, path
// validation, then read-only classification. Anything not fully understood asks.
import { PATH_RULE_NAMES } from "../../permissions/pathRules.ts";
import { withPathResolutionCache } from "../../permissions/paths.ts";
import { contentRulesNaming, rulesNaming } from "../../permissions/ruleIndex.ts";
import type { PermissionRule, RuleSuggestion } from "../../permissions/types.ts";
import type { ToolPermissionContext } from "../../tool/context.ts";
import { canConfine } from "../sandbox/confinementAvailability.ts";
import { type CommandView, viewCommand } from "./commandView.ts";
import { isHarmlessVariable } from "./envVars.ts";
import { fedReads, namesFedBy } from "./fedNames.ts";
import type { ExtractedCommand } from "./grammar/extractedCommand.ts";
import { isSafetyProblem, readBash, understoodCommands } from "./grammar/frontEnd.ts";
import { initBashParser, isBashParserReady, type SimpleCommand } from "./grammar/parse.ts";
import { type Finding, validatePaths, writesThroughRedirect } from "./pathValidation.ts";
import { isInterpreter } from "./programs.ts";
import { programReadings, rebinding, reboundName } from "./programWord.ts";
import { type Classification, classifyCommand } from "./readOnly.ts";
import { COMMAND_CHECKS } from "./security/index.ts";
import { ruleSuggestions } from "./suggestions.ts";
import { unnamedWritesFinding, unnamedWritesReason } from "./unnamedWrites.ts";

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
  /** A safety ask that an allow rule naming the command still approves (unnamedWrites.ts). */
  allowRuleApproves?: boolean;
  suggestions: RuleSuggestion[];
  findings: Finding[];
}

interface Reading {
  view: CommandView;
  classification: Classification;
}

interface Part extends Reading {
  /** Every program the command may run (a glob name's matches, what a launcher starts), each judged. */
  readings: Reading[];
  /** What the checks found on each program the command may run. */
  findings: Finding[];
  /** Why its name may run another program than the one it names (PATH=, hash -p earlier in the line). */
  rebound?: string;
}

const KIND_ORDER: Classification["kind"][] = ["read-only", "file-write", "other"];

/**
 * One command, judged as every program it may run (programWord.ts); `rebound`: why its name may run
 * another program; `before`: the commands of its pipeline before it, nearest first (what feeds xargs).
 */
function partOf(
  extracted: ExtractedCommand,
  cwd: string,
  rebound?: string,
  before: readonly CommandView[] = [],
): Part {
  const plain = viewCommand(extracted);
  const fedBy = namesFedBy(plain, before);
  const view = fedBy ? { ...plain, fedBy } : plain;
  const reading = programReadings(view, cwd);
  if (reading.kind === "unknown") {
    const classification: Classification = { ...classify(view), kind: "other", reason: reading.reason };
    return {
      view,
      classification,
      readings: [{ view, classification }],
      findings: [{ check: "unknown-program", reason: reading.reason, safety: true }],
    };
  }
  let reboundBy: string | undefined;
  const readings: Reading[] = reading.views.map((candidate) => {
    const why = reboundName(candidate, rebound);
    reboundBy ??= why;
    const classification: Classification = why
      ? { kind: "other", reason: `after ${why}, ${candidate.argv[0]} may run another program`, paths: [] }
      : classify(candidate);
    return { view: candidate, classification };
  });
  const chosen = readings.reduce((worst, next) =>
    KIND_ORDER.indexOf(next.classification.kind) > KIND_ORDER.indexOf(worst.classification.kind)
      ? next
      : worst,
  );
  return {
    ...chosen,
    readings,
    findings: reading.views.flatMap(commandFindings),
    ...(reboundBy ? { rebound: reboundBy } : {}),
  };
}

/**
 * The parts of a line in order, each knowing whether an earlier command changed how names are found
 * and (given the operators between them) which commands of its pipeline come before it.
 */
function partsOf(
  commands: readonly ExtractedCommand[],
  cwd: string,
  assignedElsewhere: readonly string[] = [],
  operators?: readonly string[],
): Part[] {
  let rebound = assignedElsewhere.some((name) => name === "PATH" || name === "BASH_CMDS")
    ? "PATH= in a loop, expansion or arithmetic of the line"
    : undefined;
  const parts: Part[] = [];
  commands.forEach((extracted, index) => {
    const before: CommandView[] = [];
    for (let at = index; at > 0 && /^\|&?$/.test(operators?.[at - 1] ?? ""); at--)
      before.push((parts[at - 1] as Part).view);
    const part = partOf(extracted, cwd, rebound, before);
    rebound ??= rebinding(part.view);
    parts.push(part);
  });
  return parts;
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
    // Fed the files find names, a command that only reads each file it is given reads those folders.
    const fed = fedReads(view);
    if (fed) return { ...classification, paths: [...classification.paths, ...fed] };
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
  assignedElsewhere: readonly string[] = [],
): Finding[] {
  if (commands.length === 0) return [];
  const parts = partsOf(commands, cwd, assignedElsewhere);
  const findings = parts.flatMap((part) => part.findings.filter((finding) => finding.safety));
  return [...findings, ...validatePaths(parts, cwd, context, { safetyOnly: true, assignedElsewhere })];
}

/**
 * Deny or ask rules a command the analysis cannot fully read could slip past: Bash content rules
 * (matched against the commands it can see) and Read/Edit rules (matched against the paths it can
 * see). With any of them, what is too complex to check against them asks in every mode.
 */
function hasRestrictingRules(context: ToolPermissionContext, bashOnly = false): boolean {
  return (["deny", "ask"] as const).some(
    (behavior) =>
      contentRulesNaming(context, behavior, ["Bash"]).length > 0 ||
      (!bashOnly && rulesNaming(context, behavior, PATH_RULE_NAMES).length > 0),
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
  const { problems, extraction, hidden, assignedElsewhere } = readBash(command);
  const strict = hasRestrictingRules(context);
  const findings: Finding[] = problems.map((problem) => ({
    ...problem,
    safety: strict || isSafetyProblem(problem),
  }));
  const simpleParts = extraction.commands.map((extracted) => extracted.simple);
  // Safety findings hold in every mode, so look for them everywhere, also inside bash -c strings.
  findings.unshift(...safetyScan(hidden, cwd, context, assignedElsewhere));

  if (problems.length > 0) {
    const tooComplex = verdictFrom(findings, simpleParts) as DetailedVerdict;
    if (tooComplex.safety || !context.sandbox.enabled || !context.sandbox.autoAllowBashIfSandboxed)
      return unconfined(tooComplex, undefined, context);
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

  const parts = partsOf(extraction.commands, cwd, [], extraction.operators);
  findings.push(
    ...parts.flatMap((part) =>
      part.findings.map((finding) => (strict ? { ...finding, safety: true } : finding)),
    ),
  );
  if (strict) {
    const bashRules = hasRestrictingRules(context, true);
    findings.push(
      ...parts.flatMap((part) =>
        part.classification.kind !== "read-only"
          ? unseenCode(part.view, part.rebound)
          : bashRules
            ? runtimeCommands(part.view)
            : [],
      ),
    );
  }
  findings.push(
    ...validatePaths(parts, cwd, context, { operators: extraction.operators }).map((finding) =>
      strict && CODE_BEHIND_PATHS.has(finding.check) ? { ...finding, safety: true } : finding,
    ),
  );
  const asked = verdictFrom(findings, simpleParts);
  return unconfined(asked ?? decideUnderstood(parts, simpleParts, context), parts, context);
}

/** Modes that approve calls nobody asked about (auto: by its classifier); elsewhere every such call asks anyway. */
const APPROVING_MODES = new Set(["bypassPermissions", "acceptEdits", "auto"]);

/**
 * Where nothing can confine the command (context.sandbox.confinement false), in a mode that would
 * approve it, a verdict becomes an ask that holds in every mode when the analysis cannot name what the
 * command writes. An allow rule naming the command still approves it when it did before (a plain "not
 * known to be read-only"); what the analysis itself asks about (inline code, a too complex line) it did not.
 */
function unconfined(
  verdict: DetailedVerdict,
  parts: Part[] | undefined,
  context: ToolPermissionContext,
): DetailedVerdict {
  if (!APPROVING_MODES.has(context.mode) || canConfine(context)) return verdict;
  if (verdict.behavior === "allow" || verdict.behavior === "deny" || verdict.safety) return verdict;
  const kinds = parts?.map((part) => ({ ...part.classification, program: part.view.argv[0] ?? "" }));
  const reason = unnamedWritesReason({ kinds, findings: verdict.findings, unreadable: verdict.reason });
  if (reason === undefined) return verdict;
  const finding = unnamedWritesFinding(reason);
  return {
    ...verdict,
    behavior: "ask",
    reason: finding.reason,
    check: finding.check,
    safety: true,
    ...(verdict.behavior === "passthrough" ? { allowRuleApproves: true } : {}),
    findings: [...verdict.findings, finding],
  };
}

/**
 * Path findings that mean code runs which no rule can be checked against: a repository git does not
 * find in a protected .git folder runs what its config names (core.fsmonitor, diff.external...).
 */
const CODE_BEHIND_PATHS = new Set(["git-repository"]);

const SYSTEM_BIN = /^\/(usr\/(local\/)?)?s?bin\//;

/**
 * With Bash rules to honour, a read-only command whose full command lines exist only when it runs
 * (`find -exec grep x {} \;`, `find | xargs cat` give each file name at run time): a rule such as
 * Bash(*appsettings*) cannot be checked against them, so it asks in every mode.
 */
function runtimeCommands(view: CommandView): Finding[] {
  const perFile = view.argv[0] === "find" && view.argv.some((arg) => /^-(exec|execdir|ok|okdir)$/.test(arg));
  if (!perFile && !view.inputArgs) return [];
  return [
    {
      check: "runtime-command",
      reason: `${view.argv[0]} runs commands on file names known only when it runs, which your Bash rules cannot be checked against`,
      safety: true,
    },
  ];
}

/**
 * With deny or ask rules to honour, code the rules cannot see: a script handed to a shell or an
 * interpreter (`sh x.sh`, `python3 tool.py`), or a program run by a path outside the system's bin
 * folders (`./del`, which may be a copy of anything). Such a command asks in every mode.
 */
function unseenCode(view: CommandView, rebound?: string): Finding[] {
  const name = view.argv[0] ?? "";
  const byPath = name.includes("/") && !SYSTEM_BIN.test(name);
  const script = isInterpreter(name.slice(name.lastIndexOf("/") + 1)) && view.argv.length > 1;
  if (!byPath && !script && !rebound) return [];
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
    allowRuleApproves: _allowRuleApproves,
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
  const {
    safety: _safety,
    suggestions: _suggestions,
    findings: _findings,
    allowRuleApproves: _allowRuleApproves,
    ...verdict
  } = detailed;
  return { verdict, parts: detailed.parts, ...(detailed.check ? { check: detailed.check } : {}) };
}

/** True only when the parser is ready and every part is an understood read-only command. */
export function isReadOnlyBashCommand(command: string): boolean {
  if (!isBashParserReady()) return false;
  try {
    const { problems, extraction } = readBash(command, { firstProblemOnly: true });
    if (problems.length > 0 || extraction.commands.length === 0) return false;
    // Each part with the commands of its pipeline before it (xargs fed the files find names reads them).
    const views: CommandView[] = [];
    return extraction.commands.every((extracted, index) => {
      const before: CommandView[] = [];
      for (let at = index; at > 0 && /^\|&?$/.test(extraction.operators[at - 1] ?? ""); at--)
        before.push(views[at - 1] as CommandView);
      const plain = viewCommand(extracted);
      const fedBy = namesFedBy(plain, before);
      const view = fedBy ? { ...plain, fedBy } : plain;
      views.push(view);
      return isReadOnlyPart(view);
    });
  } catch {
    return false;
  }
}

/**
 * Whether the line runs git and otherwise only read-only parts, with nothing the analysis would ask
 * about (`git -c`, `--exec-path`, another repository, a wrapper): the confinement then leaves git's own
 * data in `.git` writable (its hooks and config stay read-only), so commits and fetches work.
 */
export function runsOnlyGit(command: string, options: AnalyzeOptions): boolean {
  if (!isBashParserReady()) return false;
  try {
    const verdict = analyzeBashCommandNow(command, options);
    if (verdict.behavior === "ask" || verdict.behavior === "deny" || verdict.findings.length > 0)
      return false;
    let git = false;
    for (const extracted of understoodCommands(command) ?? []) {
      const view = viewCommand(extracted);
      if (view.argv[0] === "git" && view.assignments.length === 0 && !view.inputArgs) git = true;
      else if (!isReadOnlyPart(view)) return false;
    }
    return git;
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
