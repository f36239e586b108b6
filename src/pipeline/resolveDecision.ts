// Step 9: the permission decision, the hooks' word, the classifier's verdict and, for what is left to
// ask, a person. A hook "allow" never overrides a deny or an ask rule; nobody to ask means deny.
import { isHardAsk } from "../permissions/decide.ts";
import { type DecisionReason, describeDecider, type PermissionDecision } from "../permissions/types.ts";
import type { ToolUseContext } from "../tool/context.ts";
import { errorMessage } from "../tool/errors.ts";
import { parseContext } from "../tool/parseContext.ts";
import type { Tool } from "../tool/Tool.ts";
import { type Decide, reviseInput, sameInput } from "./reviseInput.ts";
import type { ClassifierVerdict, HookOutcome, PipelineServices, PreToolUseHookResult } from "./services.ts";

export interface FinalDecision {
  behavior: "allow" | "deny";
  input: unknown;
  reason: DecisionReason;
  /** What the model is told on a refusal. */
  message: string;
  /** What the decision was before a person or classifier answered (for the audit). */
  askedBecause?: string;
  /** PermissionRequest hook runs, for the audit log and the person. */
  hookOutcomes?: HookOutcome[];
  userMessages?: string[];
}

export interface ResolveArgs {
  tool: Tool;
  input: unknown;
  toolUseId: string;
  decision: PermissionDecision;
  hook: PreToolUseHookResult | undefined;
  classifier: Promise<ClassifierVerdict | undefined> | undefined;
  services: PipelineServices;
  context: ToolUseContext;
  /** The permission decision, for an input changed while approving. */
  decide: Decide;
}

export async function resolveDecision(args: ResolveArgs): Promise<FinalDecision> {
  const { tool, decision, hook } = args;
  const input = args.input;
  if (decision.behavior === "deny") return refuse(input, decision.decisionReason, decision.message);

  if (hook?.decision === "deny") {
    const reason = hook.reason ?? "blocked by a PreToolUse hook";
    return refuse(
      input,
      { type: "hook", hookName: hook.hookName ?? "PreToolUse", reason },
      `${tool.name} was blocked by a hook: ${reason}`,
    );
  }
  if (decision.behavior === "allow" && hook?.decision !== "ask") return allow(input, decision.decisionReason);

  const ask: Extract<PermissionDecision, { behavior: "ask" }> =
    decision.behavior === "ask"
      ? decision
      : {
          behavior: "ask",
          message: hook?.reason ?? `A hook asks for approval of ${tool.name}`,
          decisionReason: {
            type: "hook",
            hookName: hook?.hookName ?? "PreToolUse",
            reason: hook?.reason ?? "ask",
          },
        };

  if (hook?.decision === "allow" && !isHardAsk(ask, tool)) {
    return allow(input, {
      type: "hook",
      hookName: hook.hookName ?? "PreToolUse",
      reason: hook.reason ?? "allowed by hook",
    });
  }

  // The classifier decides only in auto mode; elsewhere its verdict is a risk signal for the audit log.
  const auto = args.context.getAppState().toolPermissionContext.mode === "auto";
  if (auto && !isHardAsk(ask, tool) && hook?.decision !== "ask" && args.classifier) {
    const verdict = await args.classifier;
    if (verdict?.behavior === "allow") {
      return allow(input, {
        type: "classifier",
        classifier: args.services.classifier?.name ?? "classifier",
        reason: verdict.reason,
      });
    }
    if (verdict?.behavior === "deny") {
      const reason: DecisionReason = {
        type: "classifier",
        classifier: args.services.classifier?.name ?? "classifier",
        reason: verdict.reason,
      };
      return refuse(input, reason, `${tool.name} was refused by the safety classifier: ${verdict.reason}`);
    }
  }
  return askPerson(args, ask);
}

async function askPerson(
  args: ResolveArgs,
  ask: Extract<PermissionDecision, { behavior: "ask" }>,
): Promise<FinalDecision> {
  const { tool, input, services, context } = args;
  const askedBecause = `${ask.message} (${describeDecider(ask.decisionReason)})`;
  const answeredByHook = await askPermissionRequestHooks(args, ask);
  if (answeredByHook) return { ...answeredByHook, askedBecause };
  const prompter = services.prompter;
  if (!prompter) {
    const reason = `${ask.message.replace(/[.\s]+$/, "")}. It needs approval, and nobody can give it in this session (non-interactive). Allow it with a permission rule, or run interactively.`;
    return { ...refuse(input, { type: "noPrompter", reason }, reason), askedBecause };
  }
  try {
    const answer = await prompter.ask({
      tool,
      input,
      toolUseId: args.toolUseId,
      message: ask.message,
      decision: ask,
      suggestions: ask.suggestions ?? [],
      context,
      signal: context.abortController.signal,
    });
    if (answer.behavior === "allow") {
      const approved = await approvedInput(args, answer.updatedInput);
      if (!approved.ok) {
        const reason: DecisionReason = {
          type: "user",
          prompter: prompter.name,
          choice: "reject",
          reason: approved.message,
        };
        return { ...refuse(input, reason, approved.message), askedBecause };
      }
      return {
        ...allow(approved.input, {
          type: "user",
          prompter: prompter.name,
          choice: answer.choice,
        }),
        askedBecause,
      };
    }
    if (answer.unanswered) {
      const reason = `nobody answered the approval question: ${answer.unanswered}`;
      return {
        ...refuse(input, { type: "noPrompter", reason }, `${tool.name} was refused: ${reason}.`),
        askedBecause,
      };
    }
    const why = answer.reason ? `: ${answer.reason}` : "";
    return {
      ...refuse(
        input,
        {
          type: "user",
          prompter: prompter.name,
          choice: "reject",
          ...(answer.reason ? { reason: answer.reason } : {}),
        },
        `The user refused this ${tool.name} call${why}. Do not retry it as is; ask what they want instead.`,
      ),
      askedBecause,
    };
  } catch (error) {
    const reason = `could not ask for approval: ${errorMessage(error)}`;
    return {
      ...refuse(input, { type: "noPrompter", reason }, `${tool.name} was refused: ${reason}`),
      askedBecause,
    };
  }
}

function allow(input: unknown, reason: DecisionReason): FinalDecision {
  return { behavior: "allow", input, reason, message: "" };
}

function refuse(input: unknown, reason: DecisionReason, message: string): FinalDecision {
  return { behavior: "deny", input, reason, message };
}

/**
 * An approval covers what was shown. An input changed while approving (by a PermissionRequest hook,
 * the person or an SDK callback) is checked and decided again: it runs if that decision allows it or
 * asks only the ordinary question the approver just answered; a deny, an ask rule, a safety check or a
 * protected path refuses it, since nobody approved that.
 */
async function approvedInput(
  args: ResolveArgs,
  updated: unknown,
): Promise<{ ok: true; input: unknown } | { ok: false; message: string }> {
  const { tool, input, context } = args;
  if (updated === undefined || sameInput(updated, input)) return { ok: true, input };
  // A tool only a person can answer (AskUserQuestion, ExitPlanMode) takes the answer as its new input.
  if (tool.requiresUserInteraction?.()) {
    const checked = tool.inputSchema.safeParse(updated, parseContext());
    return checked.success
      ? { ok: true, input: checked.data }
      : { ok: false, message: `The answer for ${tool.name} is not valid: ${checked.error.message}` };
  }
  const revised = await reviseInput(tool, updated, context, args.decide);
  if (!revised.ok)
    return { ok: false, message: `The approved input for ${tool.name} was changed: ${revised.message}` };
  const decision = revised.decision;
  if (decision.behavior === "deny")
    return {
      ok: false,
      message: `The approved input for ${tool.name} was changed into one that is refused: ${decision.message}`,
    };
  if (isHardAsk(decision, tool))
    return {
      ok: false,
      message: `The approved input for ${tool.name} was changed into one that needs its own approval (${describeDecider(decision.decisionReason)}): ${decision.message}`,
    };
  return { ok: true, input: revised.input };
}

/** PermissionRequest hooks may answer for the person; without an answer, the person is asked. */
async function askPermissionRequestHooks(
  args: ResolveArgs,
  ask: Extract<PermissionDecision, { behavior: "ask" }>,
): Promise<FinalDecision | undefined> {
  const runner = args.services.hooks;
  if (!runner?.permissionRequest) return undefined;
  let result: Awaited<ReturnType<NonNullable<typeof runner.permissionRequest>>>;
  try {
    result = await runner.permissionRequest({
      tool: args.tool,
      input: args.input,
      toolUseId: args.toolUseId,
      context: args.context,
      signal: args.context.abortController.signal,
      suggestions: ask.suggestions ?? [],
    });
  } catch {
    // A failing hook runner answers nothing; the person is asked as usual.
    return undefined;
  }
  const decision = result.decision;
  if (!decision) return undefined;
  const extra = { hookOutcomes: result.outcomes, userMessages: result.userMessages };
  const reason: DecisionReason = {
    type: "hook",
    hookName: decision.hookName,
    ...(decision.message ? { reason: decision.message } : {}),
  };
  if (decision.behavior === "deny") {
    const why = decision.message ? `: ${decision.message}` : "";
    return {
      ...refuse(args.input, reason, `${args.tool.name} was refused by a PermissionRequest hook${why}`),
      ...extra,
    };
  }
  const approved = await approvedInput(args, decision.updatedInput);
  if (!approved.ok) return { ...refuse(args.input, reason, approved.message), ...extra };
  return { ...allow(approved.input, reason), ...extra };
}
