// Keel's decision for another agent's tool call: the settings files, the mode, the tool's own check
// (Bash analyzer, path policy) and the rules, through decidePermission as `keel check` calls it. Nothing
// runs. Every decision is appended to the audit log with who decided and for which agent.
import { statSync } from "node:fs";
import type { z } from "zod";
import { auditDir, JsonlAuditSink } from "../audit/jsonlSink.ts";
import type { AuditRetention } from "../audit/retention.ts";
import { decidePermission } from "../permissions/engine.ts";
import { readDenyGlobs } from "../permissions/pathRules.ts";
import { toAbsolutePath } from "../permissions/paths.ts";
import { describeDecider, type PermissionDecision } from "../permissions/types.ts";
import { type LoadedSettings, loadSettings } from "../settings/load.ts";
import { SettingsError } from "../settings/readSettingsFile.ts";
import type { ToolPermissionContext } from "../tool/context.ts";
import { createToolUseContext } from "../tool/createContext.ts";
import { errorMessage } from "../tool/errors.ts";
import type { Tool } from "../tool/Tool.ts";
import { type HookAuditRecord, summarizeInput } from "./auditRecord.ts";
import { loadJudgedTool } from "./keelTools.ts";
import type { AgentCall, HookOptions, KeelCall, Verdict } from "./types.ts";

export interface AgentDecision {
  verdict: Verdict;
  /** A problem to mention on stderr (broken settings, unreadable audit folder). */
  note?: string;
}

function noOpinion(reason: string): Verdict {
  return { behavior: "none", reason, decidedBy: "no opinion" };
}

/** Decides and records one call of an agent. Never throws: anything unexpected is no opinion. */
export async function decideAgentCall(call: AgentCall, options: HookOptions = {}): Promise<AgentDecision> {
  const started = performance.now();
  const notes: string[] = [];
  // The settings, once read: they bound the audit log the decision is written to.
  const loaded: { settings?: LoadedSettings } = {};
  let verdict: Verdict;
  try {
    verdict =
      call.unjudged !== undefined ? noOpinion(call.unjudged) : await judge(call, options, notes, loaded);
  } catch (error) {
    verdict = noOpinion(`Keel could not decide: ${errorMessage(error)}`);
    notes.push(verdict.reason);
  }
  recordDecision(call, verdict, performance.now() - started, options, notes, loaded.settings?.auditRetention);
  return { verdict, ...(notes.length > 0 ? { note: notes.join("; ") } : {}) };
}

async function judge(
  call: AgentCall,
  options: HookOptions,
  notes: string[],
  loaded: { settings?: LoadedSettings },
): Promise<Verdict> {
  let settings: LoadedSettings;
  try {
    settings = loadSettings({
      cwd: call.projectDir,
      cli: call.mode ? { permissionMode: call.mode } : {},
      ...(options.env ? { env: options.env } : {}),
    });
    loaded.settings = settings;
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    const reason = `Keel's settings cannot be read, so it has no opinion: ${error.message.split("\n")[0]}`;
    notes.push(reason);
    return noOpinion(reason);
  }
  const verdicts: Verdict[] = [];
  for (const part of call.calls) {
    const verdict = await judgeKeelCall(part, call, settings, notes);
    // A refusal of any part refuses the whole call; no need to judge the rest.
    if (verdict.behavior === "deny") return verdict;
    verdicts.push(verdict);
  }
  return combine(verdicts);
}

/** All parts allowed: allow. Otherwise the first ask, else no opinion. */
function combine(verdicts: Verdict[]): Verdict {
  if (verdicts.length > 0 && verdicts.every((verdict) => verdict.behavior === "allow"))
    return verdicts[verdicts.length - 1] as Verdict;
  return (
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
    // Input the agent sent that Keel cannot read is bad input: said on stderr, not only in the log.
    notes.push(reason);
    return noOpinion(reason);
  };
  const checked = tool.inputSchema.safeParse(part.input);
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
  context.setAppState((state) => ({ ...state, cwd }));
  const decision = await decidePermission(tool, checked.data, context);
  const verdict = toVerdict(tool, decision);
  if (verdict.behavior !== "allow") return verdict;
  const unfiltered = searchReachesDeniedPaths(tool, checked.data, cwd, settings.permissionContext);
  return unfiltered ? noOpinion(unfiltered) : verdict;
}

function schemaProblems(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "input"}: ${issue.message}`)
    .join("; ");
}

/** Keel's own search tools leave out what Read deny rules cover while they run; the agent's do not. */
const SEARCH_TOOLS: ReadonlySet<string> = new Set(["Grep", "Glob", "LS"]);

/**
 * For a search Keel allows, whether the folder searched holds paths a Read deny rule covers. Keel's tool
 * would skip them; the agent's own search (which is what runs) may return them, so Keel cannot allow it.
 */
function searchReachesDeniedPaths(
  tool: Tool,
  input: unknown,
  cwd: string,
  permissionContext: ToolPermissionContext,
): string | undefined {
  if (!SEARCH_TOOLS.has(tool.name)) return undefined;
  const path = (input as { path?: unknown }).path;
  const root = toAbsolutePath(typeof path === "string" && path.trim() !== "" ? path : ".", cwd);
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
 * The agent runs the command, not Keel: Keel's sandbox will not contain it, so nothing may be allowed
 * on the sandbox's account ("the OS sandbox contains it"). The agent's own sandbox rules still apply there.
 */
function withoutSandbox(permissionContext: ToolPermissionContext): ToolPermissionContext {
  if (!permissionContext.sandbox.enabled) return permissionContext;
  return { ...permissionContext, sandbox: { enabled: false, autoAllowBashIfSandboxed: false } };
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
  // dontAsk turned an ask into a refusal: the agent applies its own dontAsk (with its own allow rules).
  if (decision.behavior === "deny" && byMode === "dontAsk") return { behavior: "ask", ...base };
  // Plan mode refuses what is not read-only; an MCP tool known only by name may well be read-only.
  if (decision.behavior === "deny" && byMode === "plan" && tool.isMcp) return { behavior: "ask", ...base };
  return { behavior: decision.behavior, ...base };
}

/**
 * Secrets of the environment are redacted from the log. Agents export their session id to hooks
 * (CLAUDE_CODE_SESSION_ID): it is the record's own sessionId, not a secret, and must stay readable.
 */
function redactionEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { CLAUDE_CODE_SESSION_ID: _sessionId, ...rest } = env;
  return rest;
}

function recordDecision(
  call: AgentCall,
  verdict: Verdict,
  totalMs: number,
  options: HookOptions,
  notes: string[],
  retention: AuditRetention | undefined,
): void {
  const record: HookAuditRecord = {
    time: new Date().toISOString(),
    sessionId: call.sessionId,
    toolUseId: call.toolUseId,
    tool: call.agentTool,
    inputSummary: summarizeInput(call.agentInput),
    behavior: verdict.behavior,
    decidedBy: verdict.decidedBy,
    ...(verdict.decisionReason === undefined ? {} : { decisionReason: verdict.decisionReason }),
    hooks: [],
    durationMs: { total: totalMs, permission: totalMs, call: 0 },
    resultChars: 0,
    isError: false,
    agent: call.agent,
    hookEvent: call.event,
    ...(verdict.behavior === "none" ? { noOpinion: verdict.reason } : {}),
  };
  const env = options.env ?? process.env;
  const sink = new JsonlAuditSink({
    dir: options.auditDir ?? auditDir(env),
    env: redactionEnv(env),
    onError: (message) => notes.push(message),
    ...(retention ? { retention } : {}),
  });
  sink.record(record);
  sink.close();
}
