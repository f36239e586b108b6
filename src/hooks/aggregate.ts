// Combining the runs of all matching hooks into one answer: deny > ask > allow, every context and
// message kept, the first `continue: false` stops the loop.
import type { HookOutcome, PostToolUseHookResult, PreToolUseHookResult } from "../pipeline/services.ts";
import type { HookEvent } from "./config.ts";
import { type HookRunResult, toOutcome } from "./output.ts";

interface Common {
  additionalContext: string[];
  preventContinuation?: boolean;
  stopReason?: string;
  userMessages: string[];
  outcomes: HookOutcome[];
}

function common(results: readonly HookRunResult[]): Common {
  const collected: Common = { additionalContext: [], userMessages: [], outcomes: results.map(toOutcome) };
  for (const result of results) {
    if (result.errorMessage && result.outcome !== "cancelled")
      collected.userMessages.push(result.errorMessage);
    const json = result.json;
    if (!json) continue;
    if (json.systemMessage) collected.userMessages.push(json.systemMessage);
    if (json.hookSpecificOutput?.additionalContext)
      collected.additionalContext.push(json.hookSpecificOutput.additionalContext);
    if (json.continue === false && !collected.preventContinuation) {
      collected.preventContinuation = true;
      collected.stopReason = json.stopReason ?? `stopped by hook "${result.hookName}"`;
    }
  }
  return collected;
}

type Decision = "allow" | "ask" | "deny";
const RANK: Record<Decision, number> = { allow: 1, ask: 2, deny: 3 };

function preToolUseDecision(result: HookRunResult): { decision: Decision; reason?: string } | undefined {
  if (result.outcome === "blocking")
    return { decision: "deny", reason: result.blockingError ?? "blocked by hook" };
  const json = result.json;
  if (!json) return undefined;
  const specific = json.hookSpecificOutput;
  if (specific?.permissionDecision) {
    return {
      decision: specific.permissionDecision,
      ...(specific.permissionDecisionReason ? { reason: specific.permissionDecisionReason } : {}),
    };
  }
  const legacy = json.decision;
  if (legacy === undefined) return undefined;
  const decision: Decision =
    legacy === "approve" || legacy === "allow" ? "allow" : legacy === "ask" ? "ask" : "deny";
  return { decision, ...(json.reason ? { reason: json.reason } : {}) };
}

export function aggregatePreToolUse(results: readonly HookRunResult[]): PreToolUseHookResult {
  const aggregated: PreToolUseHookResult = common(results);
  let winner: { decision: Decision; reason?: string; hookName: string } | undefined;
  for (const result of results) {
    const found = preToolUseDecision(result);
    if (found && (!winner || RANK[found.decision] > RANK[winner.decision]))
      winner = { ...found, hookName: result.hookName };
  }
  if (winner) {
    aggregated.decision = winner.decision;
    aggregated.hookName = winner.hookName;
    if (winner.reason) aggregated.reason = winner.reason;
  }
  if (winner?.decision !== "deny") {
    // The input rewrite of a hook that agrees with the outcome (or gave no decision); first one wins.
    const rewrite = results.find((result) => {
      const updated = result.json?.hookSpecificOutput?.updatedInput;
      const own = preToolUseDecision(result)?.decision;
      return updated !== undefined && (own === undefined || own === winner?.decision);
    });
    const updatedInput = rewrite?.json?.hookSpecificOutput?.updatedInput;
    if (updatedInput) aggregated.updatedInput = updatedInput;
  }
  return aggregated;
}

/** Exit 2 or `decision: "block"`: the reasons, joined. */
function blockReasons(results: readonly HookRunResult[]): { reason: string; hookName: string } | undefined {
  const reasons: string[] = [];
  let hookName: string | undefined;
  for (const result of results) {
    const reason =
      result.outcome === "blocking"
        ? result.blockingError
        : result.json?.decision === "block" || result.json?.decision === "deny"
          ? (result.json.reason ?? `blocked by hook "${result.hookName}"`)
          : undefined;
    if (reason === undefined) continue;
    reasons.push(reason);
    hookName ??= result.hookName;
  }
  return hookName === undefined ? undefined : { reason: reasons.join("\n"), hookName };
}

export function aggregatePostToolUse(results: readonly HookRunResult[]): PostToolUseHookResult {
  const aggregated: PostToolUseHookResult = common(results);
  const block = blockReasons(results);
  if (block) aggregated.blockReason = block.reason;
  return aggregated;
}

export interface PermissionRequestHookDecision {
  behavior: "allow" | "deny";
  updatedInput?: Record<string, unknown>;
  message?: string;
  interrupt?: boolean;
  hookName: string;
}

export interface HookEventResult extends Common {
  /** Exit 2 or `decision: "block"` (events that can block: UserPromptSubmit, Stop, SubagentStop, PreCompact). */
  block?: { reason: string; hookName: string };
  /** PermissionRequest only; deny beats allow. */
  permissionDecision?: PermissionRequestHookDecision;
}

const BLOCKABLE: ReadonlySet<HookEvent> = new Set(["UserPromptSubmit", "Stop", "SubagentStop", "PreCompact"]);
/** Events whose plain stdout (exit 0, not JSON) is context for the model. */
const PLAIN_TEXT_IS_CONTEXT: ReadonlySet<HookEvent> = new Set(["UserPromptSubmit", "SessionStart"]);

export function aggregateEvent(event: HookEvent, results: readonly HookRunResult[]): HookEventResult {
  const aggregated: HookEventResult = common(results);
  if (PLAIN_TEXT_IS_CONTEXT.has(event)) {
    for (const result of results) if (result.plainText) aggregated.additionalContext.push(result.plainText);
  }
  const block = blockReasons(results);
  if (block && BLOCKABLE.has(event)) aggregated.block = block;
  else if (block) aggregated.userMessages.push(block.reason);
  if (event === "PermissionRequest") {
    for (const result of results) {
      const decision: PermissionRequestHookDecision | undefined =
        result.outcome === "blocking"
          ? { behavior: "deny", message: result.blockingError ?? "denied by hook", hookName: result.hookName }
          : result.json?.hookSpecificOutput?.decision
            ? { ...result.json.hookSpecificOutput.decision, hookName: result.hookName }
            : undefined;
      if (!decision) continue;
      if (
        !aggregated.permissionDecision ||
        (decision.behavior === "deny" && aggregated.permissionDecision.behavior === "allow")
      )
        aggregated.permissionDecision = decision;
    }
  }
  return aggregated;
}
