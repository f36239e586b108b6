// One call through every step of ARCHITECTURE.md ("The path of one call"), in order. Yields progress, then exactly one result.
// Nothing a tool (or hook, classifier, prompter) throws escapes: every failure is an is_error result.
import { type Asker, callInSession, decide as decideCall } from "../permissions/decide.ts";
import { findDenyRule, fromRule } from "../permissions/engine.ts";
import { findBlanketDenyForName } from "../permissions/matchers.ts";
import { pathResolutionScope } from "../permissions/paths.ts";
import { type DecisionReason, describeDecider, type PermissionDecision } from "../permissions/types.ts";
import type { ToolUseContext } from "../tool/context.ts";
import { didYouMean } from "../tool/didYouMean.ts";
import { clipEchoedInput, errorMessage, type ToolErrorCode } from "../tool/errors.ts";
import type { ToolResultBlock, ToolUseBlock } from "../tool/messages.ts";
import { parseContext } from "../tool/parseContext.ts";
import { findToolByName } from "../tool/registry.ts";
import type { Tool, ToolResult } from "../tool/Tool.ts";
import { abortMessage, type CallState, callTool, guard } from "./callTool.ts";
import { formatSchemaError, parseArguments } from "./input.ts";
import { resolveDecision } from "./resolveDecision.ts";
import { errorResult } from "./results.ts";
import { reviseInput } from "./reviseInput.ts";
import type {
  AuditRecord,
  ClassifierVerdict,
  PermissionDecider,
  PipelineServices,
  PreToolUseHookResult,
} from "./services.ts";

export interface ProgressEvent {
  type: "progress";
  toolUseId: string;
  source: "tool" | "hook";
  data: unknown;
}

export interface ResultEvent {
  type: "result";
  toolUseId: string;
  toolName: string;
  block: ToolResultBlock;
  isError: boolean;
  errorCode?: ToolErrorCode;
  /** The permission decision and who made it; absent when the call failed before the permission step. */
  decision?: { behavior: "allow" | "deny"; decidedBy: string; reason: DecisionReason };
  output?: unknown;
  structuredContent?: Record<string, unknown>;
  contextModifier?: ToolResult<unknown>["contextModifier"];
  /** Text hooks add for the model beside the result. */
  additionalContext: string[];
  /** Messages for the person (hook errors, system messages). */
  userMessages: string[];
  preventContinuation?: boolean;
  stopReason?: string;
  persistedPath?: string;
}

export type PipelineEvent = ProgressEvent | ResultEvent;

/**
 * Runs one tool call through the governed pipeline, yielding progress events and then one result.
 * `services` holds the session's prompter, hooks, audit sink, classifier and gate (see PipelineServices):
 * `runToolUse(call, context, { prompter: callbackPrompter(canUseTool) })` lets your code answer asks.
 */
export async function* runToolUse(
  toolUse: ToolUseBlock,
  context: ToolUseContext,
  services: PipelineServices = {},
): AsyncGenerator<PipelineEvent, void, undefined> {
  const state: CallState = {
    started: performance.now(),
    permissionMs: 0,
    callMs: 0,
    hooks: [],
    additionalContext: [],
    userMessages: [],
  };
  const signal = context.abortController.signal;
  const finish = (
    tool: Tool | undefined,
    block: ToolResultBlock,
    extra: Partial<ResultEvent> = {},
  ): ResultEvent => {
    const event: ResultEvent = {
      type: "result",
      toolUseId: toolUse.id,
      toolName: tool?.name ?? toolUse.name,
      block,
      isError: block.is_error === true,
      additionalContext: state.additionalContext,
      userMessages: state.userMessages,
      ...(state.decision ? { decision: state.decision } : {}),
      ...(state.preventContinuation ? { preventContinuation: true, stopReason: state.stopReason } : {}),
      ...extra,
    };
    recordAudit(services, context, toolUse, tool, event, state);
    return event;
  };
  // An error quotes at most ~1 KB of any long input string (a 2 MiB path once, not twice in full).
  const fail = (
    tool: Tool | undefined,
    code: ToolErrorCode,
    message: string,
    extra: Partial<ResultEvent> = {},
  ) =>
    finish(tool, errorResult(toolUse.id, clipEchoedInput(message, [toolUse.name, toolUse.input])), {
      errorCode: code,
      ...extra,
    });

  // 1. Look up the tool. One hidden by a blanket deny rule is refused by that rule (and audited so).
  const tool = findToolByName(context.options.tools, toolUse.name);
  if (!tool) {
    const rule = findBlanketDenyForName(context.getAppState().toolPermissionContext, toolUse.name);
    if (rule) {
      const reason = { type: "rule" as const, rule };
      state.decision = { behavior: "deny", decidedBy: describeDecider(reason), reason };
      yield fail(
        undefined,
        "permission_denied",
        `${toolUse.name} is not available: the ${describeDecider(reason)} denies it. Do not call it again; use another tool or tell the user.`,
      );
      return;
    }
    const names = context.options.tools.map((t) => t.name);
    yield fail(
      undefined,
      "unknown_tool",
      `No tool named "${toolUse.name}"${didYouMean(toolUse.name, names) || "."} Available tools: ${names.join(", ") || "(none)"}.`,
    );
    return;
  }
  // 2. Stop at once if already aborted.
  if (signal.aborted) {
    yield fail(tool, "aborted", abortMessage(signal, true));
    return;
  }
  // 3. Parse the raw JSON arguments.
  const parsed = parseArguments(toolUse.input);
  if (!parsed.ok) {
    yield fail(tool, "invalid_json", `${tool.name}: ${parsed.message}`);
    return;
  }
  // 4. Validate against the schema.
  const checked = tool.inputSchema.safeParse(parsed.value, parseContext());
  if (!checked.success) {
    yield fail(tool, "invalid_input", formatSchemaError(tool.name, checked.error));
    return;
  }
  let input: unknown = checked.data;
  // Steps 4b-7 name the call's paths again and again: each is resolved once for them (not for hooks,
  // which may change the disk, nor for the call itself).
  const resolutions = pathResolutionScope();
  // 4b. Deny rules, before the tool's own validation looks at anything (a denied path's existence is
  // not told), recorded as the refusal it is: who denied is the rule.
  const denial = await guard(() => resolutions.run(() => findDenyRule(tool, input, context)));
  const denyingRule = denial.ok ? denial.value : undefined;
  if (denyingRule) {
    resolutions.close();
    const refusal = fromRule(denyingRule, tool);
    const reason = refusal.decisionReason;
    state.decision = { behavior: "deny", decidedBy: describeDecider(reason), reason };
    context.toolDecisions?.set(toolUse.id, { behavior: "deny", decidedBy: state.decision.decidedBy, reason });
    yield fail(tool, "permission_denied", `${refusal.message}. Do not try to reach it another way.`);
    return;
  }
  // 5. The tool's own validation.
  const validation = await guard(() => resolutions.run(() => tool.validateInput?.(input, context)));
  if (!validation.ok || validation.value?.result === false) resolutions.close();
  if (!validation.ok) {
    yield fail(
      tool,
      "validation_failed",
      `${tool.name} could not validate its input: ${errorMessage(validation.error)}`,
    );
    return;
  }
  if (validation.value && validation.value.result === false) {
    yield fail(tool, validation.value.errorCode ?? "validation_failed", validation.value.message);
    return;
  }
  // 6. The speculative classifier starts now, beside steps 7-9, in every mode. It outlives the decision
  // (its verdict is recorded when it comes), bounded by the session's abort and CLASSIFIER_TIMEOUT_MS.
  const classifier = services.classifier
    ? startClassifier(
        services,
        tool,
        input,
        context,
        AbortSignal.any([signal, AbortSignal.timeout(CLASSIFIER_TIMEOUT_MS)]),
        state,
      )
    : undefined;
  state.classifierPending = classifier;
  {
    // 7. Permission check. 8. PreToolUse hooks. 9. Resolve.
    const permissionStart = performance.now();
    const asker = askerOf(services);
    const decide: PermissionDecider =
      services.decidePermission ?? ((t, i, c) => decideCall(callInSession(t, i, c, asker)));
    let decision = await resolutions.run(() => decideSafely(decide, tool, input, context));
    resolutions.close();
    let hook: PreToolUseHookResult | undefined;
    if (decision.behavior !== "deny" && services.hooks) {
      const hookRun = await guard(() =>
        services.hooks!.preToolUse({ tool, input, toolUseId: toolUse.id, context, signal }),
      );
      if (!hookRun.ok) state.userMessages.push(`PreToolUse hooks failed: ${errorMessage(hookRun.error)}`);
      hook = hookRun.ok ? hookRun.value : undefined;
      if (hook) absorbHook(state, hook);
      if (hook?.updatedInput && hook.decision !== "deny") {
        // A rewritten input passes the schema, the tool's validation and the rules again.
        const revised = await reviseInput(tool, hook.updatedInput, context, (t, i, c) =>
          decideSafely(decide, t, i, c),
        );
        if (!revised.ok) {
          yield fail(tool, revised.code, `A PreToolUse hook rewrote the input: ${revised.message}`);
          return;
        }
        input = revised.input;
        decision = revised.decision;
      }
    }
    const final = await resolveDecision({
      tool,
      input,
      toolUseId: toolUse.id,
      decision,
      hook,
      classifier,
      services,
      context,
      decide: (t, i, c) => decideSafely(decide, t, i, c),
    });
    state.permissionMs = performance.now() - permissionStart;
    if (final.hookOutcomes) state.hooks.push(...final.hookOutcomes);
    if (final.userMessages) state.userMessages.push(...final.userMessages);
    state.decision = {
      behavior: final.behavior,
      decidedBy: describeDecider(final.reason),
      reason: final.reason,
    };
    context.toolDecisions?.set(toolUse.id, {
      behavior: final.behavior,
      decidedBy: state.decision.decidedBy,
      reason: final.reason,
    });
    if (final.behavior === "deny") {
      yield fail(tool, hook?.decision === "deny" ? "hook_blocked" : "permission_denied", final.message);
      return;
    }
    input = final.input;
    if (hook?.preventContinuation) {
      yield fail(
        tool,
        "hook_blocked",
        `A hook stopped the session before ${tool.name} ran: ${hook.stopReason ?? "continue: false"}`,
      );
      return;
    }
    // 10-15. Gate, call, output check, post hooks, result.
    yield* callTool({ tool, input, toolUse, context, services, state, finish, fail });
  }
}

/** Who answers this session's asks: its prompter (a person, or a client's form), or nobody. */
function askerOf(services: PipelineServices): Asker {
  if (!services.prompter) return "nobody";
  return services.prompter.name === "mcp-elicitation" ? "form" : "person";
}

/** A classifier that has not answered by then is given up on; its record says so. */
export const CLASSIFIER_TIMEOUT_MS = 60_000;

async function decideSafely(
  decide: NonNullable<PipelineServices["decidePermission"]>,
  tool: Tool,
  input: unknown,
  context: ToolUseContext,
): Promise<PermissionDecision> {
  try {
    return await decide(tool, input, context);
  } catch (error) {
    return {
      behavior: "ask",
      message: `The permission check for ${tool.name} failed (${errorMessage(error)}), so it needs approval`,
      decisionReason: { type: "default", reason: `permission check failed: ${errorMessage(error)}` },
    };
  }
}

function startClassifier(
  services: PipelineServices,
  tool: Tool,
  input: unknown,
  context: ToolUseContext,
  signal: AbortSignal,
  state: CallState,
): Promise<ClassifierVerdict | undefined> | undefined {
  const classifier = services.classifier;
  if (!classifier) return undefined;
  const started = performance.now();
  return Promise.resolve()
    .then(() => classifier.classify({ tool, input, context, signal }))
    .then(
      (verdict) => {
        state.classifier = { ...verdict, durationMs: performance.now() - started };
        return verdict;
      },
      (error: unknown) => {
        state.classifier = {
          behavior: "ask",
          reason: `classifier failed: ${errorMessage(error)}`,
          durationMs: performance.now() - started,
        };
        return undefined;
      },
    );
}

function absorbHook(state: CallState, hook: PreToolUseHookResult): void {
  state.hooks.push(...hook.outcomes);
  state.additionalContext.push(...hook.additionalContext);
  state.userMessages.push(...hook.userMessages);
  if (hook.preventContinuation) {
    state.preventContinuation = true;
    state.stopReason = hook.stopReason;
  }
}

function summarizeInput(input: unknown): string {
  let text: string;
  try {
    text = typeof input === "string" ? input : JSON.stringify(input);
  } catch {
    text = String(input);
  }
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function recordAudit(
  services: PipelineServices,
  context: ToolUseContext,
  toolUse: ToolUseBlock,
  tool: Tool | undefined,
  event: ResultEvent,
  state: CallState,
): void {
  if (!services.audit) return;
  const content = event.block.content;
  const entry: AuditRecord = {
    time: new Date().toISOString(),
    sessionId: context.options.sessionId,
    toolUseId: toolUse.id,
    tool: tool?.name ?? toolUse.name,
    inputSummary: summarizeInput(toolUse.input),
    behavior: event.decision?.behavior ?? "none",
    decidedBy: event.decision?.decidedBy ?? "not reached (the call failed before the permission step)",
    ...(event.decision ? { decisionReason: event.decision.reason } : {}),
    hooks: state.hooks,
    ...(state.classifier ? { classifier: state.classifier } : {}),
    durationMs: {
      total: performance.now() - state.started,
      permission: state.permissionMs,
      call: state.callMs,
    },
    resultChars: typeof content === "string" ? content.length : JSON.stringify(content).length,
    isError: event.isError,
    ...(event.errorCode ? { errorCode: event.errorCode } : {}),
    ...(context.agentId ? { agentId: context.agentId } : {}),
    mode: context.getAppState().toolPermissionContext.mode,
  };
  try {
    services.audit.record(entry);
  } catch {
    // An audit sink that fails must not fail the call; the sink reports its own errors.
  }
  const pending = state.classifierPending;
  if (pending && !state.classifier) void pending.then(() => recordLateVerdict(services, entry, state));
}

/** The classifier answered after the decision was recorded: a record of its own, linked by toolUseId. */
function recordLateVerdict(services: PipelineServices, decided: AuditRecord, state: CallState): void {
  const verdict = state.classifier;
  if (!services.audit || !verdict || verdict.notConsulted) return;
  try {
    services.audit.record({
      ...decided,
      time: new Date().toISOString(),
      classifier: verdict,
      classifierVerdictFor: decided.toolUseId,
    });
  } catch {
    // As above: the sink reports its own errors.
  }
}
