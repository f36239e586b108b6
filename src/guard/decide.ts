// Keel's decision for another agent's tool call: the settings files, the mode, the tool's own check
// (Bash analyzer, path policy) and the rules, through decidePermission as `keel check` calls it. Nothing
// runs. Every decision is appended to the audit log with who decided and for which agent.
import { statSync } from "node:fs";
import type * as z from "zod";
import { openDecisionLog } from "../audit/decisionLog.ts";
import { auditDir } from "../audit/jsonlSink.ts";
import { callInSession, decide, isHardAsk } from "../permissions/decide.ts";
import { readDenyGlobs } from "../permissions/pathRules.ts";
import { toAbsolutePath } from "../permissions/paths.ts";
import { describeDecider, type PermissionDecision } from "../permissions/types.ts";
import { type LoadedSettings, loadSettings } from "../settings/load.ts";
import { SettingsError } from "../settings/readSettingsFile.ts";
import type { Env, ToolPermissionContext } from "../tool/context.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import { errorMessage } from "../tool/errors.ts";
import { monotonicMs } from "../tool/monotonicClock.ts";
import { parseContext } from "../tool/parseContext.ts";
import type { Tool } from "../tool/Tool.ts";
import { type HookAuditRecord, summarizeInput } from "./auditRecord.ts";
import { loadJudgedTool } from "./keelTools.ts";
import { savedAPrompt } from "./savedPrompt.ts";
import type { AgentCall, AgentName, HookOptions, KeelCall, Verdict } from "./types.ts";

export interface AgentDecision {
  verdict: Verdict;
  /** A problem to mention on stderr (broken settings, unreadable audit folder). */
  note?: string;
}

function noOpinion(reason: string): Verdict {
  return { behavior: "none", reason, decidedBy: "no opinion" };
}

/** A refusal because Keel cannot decide: a Keel that cannot decide says no, never nothing. */
function cannotDecide(reason: string, check: string): Verdict {
  return {
    behavior: "deny",
    reason,
    decidedBy: describeDecider({ type: "safetyCheck", reason, check }),
    decisionReason: { type: "safetyCheck", reason, check },
  };
}

/** An ask the agent must put to its person: Keel cannot read the call well enough to judge it. */
function unreadableInput(reason: string): Verdict {
  return {
    behavior: "ask",
    firm: true,
    reason,
    decidedBy: describeDecider({ type: "safetyCheck", reason, check: "unreadable-input" }),
    decisionReason: { type: "safetyCheck", reason, check: "unreadable-input" },
  };
}

/** Decides and records one call of an agent. Never throws: anything unexpected is a refusal. */
export async function decideAgentCall(call: AgentCall, options: HookOptions): Promise<AgentDecision> {
  const started = monotonicMs();
  const notes: string[] = [];
  let verdict: Verdict;
  let settings: LoadedSettings | undefined;
  try {
    const read = readSettings(call, options, notes);
    settings = "refusal" in read ? undefined : read.settings;
    if ("refusal" in read) verdict = read.refusal;
    else if (call.unjudged === undefined) verdict = await judge(call, read.settings, notes);
    else verdict = call.unreadable ? unreadableInput(call.unjudged) : noOpinion(call.unjudged);
  } catch (error) {
    verdict = cannotDecide(
      `Keel could not decide this call (${errorMessage(error)}), so it refuses it`,
      "keel-error",
    );
    notes.push(verdict.reason);
  }
  await recordDecision(call, verdict, monotonicMs() - started, { options, notes, settings });
  return { verdict, ...(notes.length > 0 ? { note: notes.join("; ") } : {}) };
}

/** The settings of the call's project, or the refusal (and the reason in notes) when one cannot be read. */
function readSettings(
  call: AgentCall,
  options: HookOptions,
  notes: string[],
): { settings: LoadedSettings } | { refusal: Verdict } {
  try {
    return {
      settings: loadSettings({
        cwd: call.projectDir,
        cli: call.mode ? { permissionMode: call.mode } : {},
        // The agent runs the command: Keel confines nothing here.
        confinement: false,
        env: options.env,
      }),
    };
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    // The policy is unknown, so nothing can be allowed: every call is refused until the file is fixed.
    const first = error.problems[0];
    const where = first ? `${first.file}:${first.line}:${first.column}` : "(unknown file)";
    const what = first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : error.message;
    const more = error.problems.length > 1 ? ` (and ${error.problems.length - 1} more problems)` : "";
    const reason = `Keel's settings at ${where} cannot be read: ${what}${more}. Keel refuses every call until the file is fixed`;
    notes.push(reason);
    return { refusal: cannotDecide(reason, "settings-unreadable") };
  }
}

async function judge(call: AgentCall, settings: LoadedSettings, notes: string[]): Promise<Verdict> {
  const verdicts: Verdict[] = [];
  for (const part of call.calls) {
    const verdict = await judgeKeelCall(part, call, settings, notes);
    // A refusal of any part refuses the whole call; no need to judge the rest.
    if (verdict.behavior === "deny") return verdict;
    verdicts.push(verdict);
  }
  return combine(verdicts);
}

/** All parts allowed: allow. Otherwise the first firm ask, the first ask, else no opinion. */
function combine(verdicts: Verdict[]): Verdict {
  if (verdicts.length > 0 && verdicts.every((verdict) => verdict.behavior === "allow"))
    return verdicts[verdicts.length - 1] as Verdict;
  return (
    verdicts.find((verdict) => verdict.behavior === "ask" && verdict.firm) ??
    verdicts.find((verdict) => verdict.behavior === "ask") ??
    verdicts.find((verdict) => verdict.behavior === "none") ??
    noOpinion("nothing to judge")
  );
}

async function judgeKeelCall(
  part: KeelCall,
  call: AgentCall,
  settings: LoadedSettings,
  notes: string[],
): Promise<Verdict> {
  const tool = await loadJudgedTool(part.tool);
  if (!tool) return noOpinion(`Keel does not judge ${part.tool} calls`);
  const unreadable = (reason: string) => {
    // Input the agent sent that Keel cannot read is not understood: the person decides, and stderr says why.
    notes.push(reason);
    return unreadableInput(reason);
  };
  const checked = tool.inputSchema.safeParse(part.input, parseContext());
  if (!checked.success)
    return unreadable(`${call.agentTool} input Keel cannot read: ${schemaProblems(checked.error)}`);
  const unknown = unknownFields(part.input, checked.data);
  // A field Keel's tool does not know may change what the call does: not understood, so no opinion.
  if (unknown.length > 0)
    return unreadable(`${call.agentTool} input has fields Keel does not know: ${unknown.join(", ")}`);
  const context = createToolUseContext({
    tools: [tool],
    permissionContext: withoutSandbox(settings.permissionContext),
    sessionId: call.sessionId,
  });
  const cwd = part.cwd ?? call.cwd;
  // The agent asks its own person about what Keel leaves to it.
  const decision = await decide({ ...callInSession(tool, checked.data, context, "person"), cwd });
  const verdict = toVerdict(tool, decision);
  if (verdict.behavior !== "allow") return verdict;
  const unfiltered = searchReachesDeniedPaths(tool, checked.data, cwd, settings.permissionContext);
  if (!unfiltered) return verdict;
  // Keel's own search would leave the denied paths out; the agent's will not: a Read deny rule makes this ask.
  const reason = { type: "safetyCheck" as const, reason: unfiltered, check: "search-reaches-denied-paths" };
  return {
    behavior: "ask",
    firm: true,
    reason: unfiltered,
    decidedBy: describeDecider(reason),
    decisionReason: reason,
  };
}

function schemaProblems(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "input"}: ${issue.message}`)
    .join("; ");
}

/**
 * For a search Keel allows, whether the folder searched holds paths a Read deny rule covers. Keel's tool
 * (`searchesFolder`) would skip them; the agent's own search (which is what runs) may return them, so
 * Keel cannot allow it.
 */
function searchReachesDeniedPaths(
  tool: Tool,
  input: unknown,
  cwd: string,
  permissionContext: ToolPermissionContext,
): string | undefined {
  if (!tool.searchesFolder) return undefined;
  const path = (input as { path?: unknown }).path;
  const root = toAbsolutePath(
    typeof path === "string" && path.trim() !== "" ? path : ".",
    cwd,
    permissionContext.caller.home,
  );
  if (!isFolder(root)) return undefined;
  const denied = readDenyGlobs(permissionContext, root);
  if (denied.length === 0) return undefined;
  return `${tool.name} of ${root} reaches paths Read deny rules cover (${denied.join(", ")}); the agent's own search does not leave them out as Keel's does`;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The agent runs the command, not Keel: neither Keel's sandbox nor its confinement will contain it, so
 * nothing may be allowed on their account ("the OS sandbox contains it", a mode approving writes the
 * analyzer cannot name). The agent's own sandbox rules still apply there.
 */
function withoutSandbox(permissionContext: ToolPermissionContext): ToolPermissionContext {
  const { sandbox } = permissionContext;
  if (!sandbox.enabled && !sandbox.confinement) return permissionContext;
  return {
    ...permissionContext,
    sandbox: { enabled: false, autoAllowBashIfSandboxed: false, confinement: false },
  };
}

function unknownFields(given: Record<string, unknown>, parsed: unknown): string[] {
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return [];
  return Object.keys(given).filter((key) => !(key in parsed));
}

function toVerdict(tool: Tool, decision: PermissionDecision): Verdict {
  const reason = decision.message ?? "";
  const decidedBy = describeDecider(decision.decisionReason);
  const base = { reason, decidedBy, decisionReason: decision.decisionReason };
  const byMode = decision.decisionReason.type === "mode" ? decision.decisionReason.mode : undefined;
  // Plan mode refuses what is not read-only; an MCP tool known only by name may well be read-only.
  if (decision.behavior === "deny" && byMode === "plan" && tool.isMcp)
    return { behavior: "ask", firm: true, ...base };
  if (decision.behavior === "ask") return { behavior: "ask", firm: isHardAsk(decision, tool), ...base };
  return { behavior: decision.behavior, ...base };
}

/**
 * Secrets of the environment are redacted from the log. Agents export their session id to hooks
 * (CLAUDE_CODE_SESSION_ID, GEMINI_SESSION_ID, ...) in variables whose names look secret: it is the
 * record's own sessionId, what `keel audit --session` looks for, so no variable holding it is redacted.
 */
function redactionEnv(env: Env, sessionId: string): Env {
  const kept: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env))
    if (name !== "CLAUDE_CODE_SESSION_ID" && value !== sessionId) kept[name] = value;
  return kept;
}

/** The Keel tools a call was judged as, when they are not the agent's own name for it. */
function keelToolsOf(call: AgentCall): string[] | undefined {
  const names = [...new Set(call.calls.map((part) => part.tool))];
  return names.length > 0 && !(names.length === 1 && names[0] === call.agentTool) ? names : undefined;
}

async function recordDecision(
  call: AgentCall,
  verdict: Verdict,
  totalMs: number,
  made: { options: HookOptions; notes: string[]; settings: LoadedSettings | undefined },
): Promise<void> {
  const { options, notes, settings } = made;
  const mode = call.mode ?? settings?.permissionContext.mode;
  const record: HookAuditRecord = {
    time: new Date().toISOString(),
    sessionId: call.sessionId,
    toolUseId: call.toolUseId,
    tool: call.agentTool,
    ...(keelToolsOf(call) ? { keelTools: keelToolsOf(call) } : {}),
    inputSummary: summarizeInput(call.agentInput),
    behavior: verdict.behavior,
    decidedBy: verdict.decidedBy,
    ...(verdict.decisionReason === undefined ? {} : { decisionReason: verdict.decisionReason }),
    hooks: [],
    durationMs: { total: totalMs, permission: totalMs, call: 0 },
    resultChars: 0,
    isError: false,
    ...(mode ? { mode } : {}),
    agent: call.agent,
    hookEvent: call.event,
    ...((await savedAPrompt(call, verdict)) ? { savedPrompt: true } : {}),
    ...(verdict.behavior === "none" ? { noOpinion: verdict.reason } : {}),
  };
  const env = options.env;
  const opened = await openDecisionLog({
    env,
    ...(settings ? { settings } : {}),
    surface: "hook",
    auditDir: options.auditDir ?? auditDir(env),
    redactionEnv: redactionEnv(env, call.sessionId),
    onError: (message) => notes.push(message),
  });
  // A decision server holds the records until its client takes the answer (audit/heldSink.ts).
  const log = options.holdRecords ? options.holdRecords(opened) : opened;
  log.record(record);
  log.close();
}

/**
 * Records the refusal of an event Keel could not read as a call (it has no tool or input to record).
 * Returns a problem with the audit log to mention, if any.
 */
export async function recordUnreadableEvent(
  agent: AgentName,
  reason: string,
  options: HookOptions,
): Promise<string | undefined> {
  const notes: string[] = [];
  const call: AgentCall = {
    agent,
    event: "unreadable",
    agentTool: "(unreadable event)",
    agentInput: null,
    calls: [],
    projectDir: "",
    cwd: "",
    sessionId: "unknown",
    toolUseId: "",
  };
  await recordDecision(call, cannotDecide(reason, "unreadable-event"), 0, {
    options,
    notes,
    settings: undefined,
  });
  return notes.length > 0 ? notes.join("; ") : undefined;
}
