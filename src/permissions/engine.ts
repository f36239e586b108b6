// The decision order for one call, step by step as ARCHITECTURE.md lists it. Rules and modes are applied
// here, in one place: tools contribute only through checkPermissions() (a tool that means "ask unless
// a rule covers this" returns passthrough), and a tool that needs a rule's answer elsewhere (a deny
// rule before it touches a path, an allow rule opening a private host) asks this module.
import { type ToolPermissionContext, type ToolUseContext, updatePermissionContext } from "../tool/context.ts";
import { errorMessage } from "../tool/errors.ts";
import { safeFlag, type Tool } from "../tool/Tool.ts";
import { setAsideInAuto } from "./autoModeRules.ts";
import { findBlanketRule, findContentRule, ruleNamesOf } from "./matchers.ts";
import { rulesNaming } from "./ruleIndex.ts";
import { formatRuleValue } from "./rules.ts";
import type { PermissionDecision, PermissionResult, PermissionRule } from "./types.ts";

function ruleMessage(rule: PermissionRule, tool: Tool): string {
  const verb =
    rule.behavior === "deny" ? "denied" : rule.behavior === "ask" ? "requires approval" : "allowed";
  return `${tool.name} ${verb} by the ${rule.source} rule ${rule.behavior}: ${formatRuleValue(rule.value)}`;
}

/** The decision a matching rule makes, with its message. */
export function fromRule<I>(rule: PermissionRule, tool: Tool): PermissionDecision<I> {
  const message = ruleMessage(rule, tool);
  const decisionReason = { type: "rule" as const, rule };
  if (rule.behavior === "deny") return { behavior: "deny", message, decisionReason };
  if (rule.behavior === "ask") return { behavior: "ask", message, decisionReason };
  return { behavior: "allow", decisionReason, message };
}

/** The deny rule covering a call, blanket or content, as the decision's first steps find it. */
export async function findDenyRule(
  tool: Tool,
  input: unknown,
  context: ToolUseContext,
  permissionContext: ToolPermissionContext = context.getAppState().toolPermissionContext,
): Promise<PermissionRule | undefined> {
  return (
    findBlanketRule(permissionContext, tool, "deny") ??
    (await findContentRule(context, permissionContext, tool, input, "deny"))
  );
}

/** Whether any deny rule names this tool's rules (no matcher runs): without one, no call of it is denied by content. */
export function hasDenyRuleNaming(tool: Tool, context: ToolUseContext): boolean {
  return rulesNaming(context.getAppState().toolPermissionContext, "deny", ruleNamesOf(tool)).length > 0;
}

/** A content allow rule naming this call specifically (a blanket allow is not one). */
export async function findContentAllowRule(
  tool: Tool,
  input: unknown,
  context: ToolUseContext,
): Promise<PermissionRule | undefined> {
  const permissionContext = context.getAppState().toolPermissionContext;
  return findContentRule(context, permissionContext, tool, input, "allow");
}

async function toolOwnCheck<I>(
  tool: Tool<I>,
  input: I,
  context: ToolUseContext,
): Promise<PermissionResult<I>> {
  try {
    return await tool.checkPermissions(input, context);
  } catch (error) {
    // A check that crashes has not said yes, in any mode: bypass and allow rules cannot wave it through.
    return {
      behavior: "ask",
      message: `${tool.name}'s permission check failed: ${errorMessage(error)}`,
      decisionReason: { type: "safetyCheck", reason: errorMessage(error), check: "checkPermissions-error" },
    };
  }
}

/**
 * Decides one call: blanket deny -> content deny -> blanket ask -> tool.checkPermissions -> tool deny
 * -> plan mode -> needs a person -> content ask rule -> safety check (even in bypass; for one that
 * allows it, a content allow rule first) -> bypass -> blanket allow -> the tool's own allow or ask ->
 * content allow rule -> otherwise ask.
 * `dontAsk` turns a final ask into a deny.
 */
export async function decidePermission<I>(
  tool: Tool<I>,
  input: I,
  context: ToolUseContext,
  permissionContext: ToolPermissionContext = context.getAppState().toolPermissionContext,
): Promise<PermissionDecision<I>> {
  const decision = await decideBeforeMode(tool, input, context, permissionContext);
  if (decision.behavior === "ask" && permissionContext.mode === "dontAsk") {
    return {
      behavior: "deny",
      message: `${decision.message} (refused: permission mode dontAsk turns every approval request into a refusal)`,
      decisionReason: { type: "mode", mode: "dontAsk" },
    };
  }
  return decision;
}

async function decideBeforeMode<I>(
  tool: Tool<I>,
  input: I,
  context: ToolUseContext,
  permissionContext: ToolPermissionContext,
): Promise<PermissionDecision<I>> {
  const anyTool = tool as Tool;
  const deny = await findDenyRule(anyTool, input, context, permissionContext);
  if (deny) return fromRule(deny, anyTool);

  const blanketAsk = findBlanketRule(permissionContext, anyTool, "ask");
  if (blanketAsk) return fromRule(blanketAsk, anyTool);

  const own = await toolOwnCheck(tool, input, context);
  const checkedInput = (
    "updatedInput" in own && own.updatedInput !== undefined ? own.updatedInput : input
  ) as I;
  if (own.behavior === "deny") return own;

  const mode = permissionContext.mode;
  if (mode === "plan" && !safeFlag(() => tool.isReadOnly(checkedInput), false)) {
    return {
      behavior: "deny",
      message: `${tool.name} changes things, and plan mode allows read-only tools only. Finish the plan and ask to leave plan mode first.`,
      decisionReason: { type: "mode", mode: "plan" },
    };
  }

  if (own.behavior === "ask" && tool.requiresUserInteraction?.()) return withReason(own, tool);

  const contentAsk = await findContentRule(context, permissionContext, anyTool, checkedInput, "ask");
  if (contentAsk) return fromRule(contentAsk, anyTool);

  // A safety check, or an ask rule the tool applied itself (Bash applies Read/Edit rules to its paths), holds in every mode.
  if (
    own.behavior === "ask" &&
    (own.decisionReason?.type === "safetyCheck" || own.decisionReason?.type === "rule")
  ) {
    // Some hold against modes only: an allow rule naming the call is the user's own statement of trust.
    if (own.decisionReason.type === "safetyCheck" && own.decisionReason.allowRuleApproves) {
      const allowed = await findContentRule(context, permissionContext, anyTool, checkedInput, "allow");
      if (allowed)
        return { ...fromRule<I>(allowed, anyTool), updatedInput: checkedInput } as PermissionDecision<I>;
    }
    return withReason(own, tool);
  }

  if (mode === "bypassPermissions" && permissionContext.isBypassPermissionsModeAvailable) {
    return {
      behavior: "allow",
      updatedInput: checkedInput,
      decisionReason: { type: "mode", mode },
      message: "allowed by permission mode bypassPermissions",
    };
  }

  const blanketAllow = findBlanketRule(permissionContext, anyTool, "allow");
  if (blanketAllow)
    return { ...fromRule<I>(blanketAllow, anyTool), updatedInput: checkedInput } as PermissionDecision<I>;

  if (own.behavior === "allow") {
    return {
      behavior: "allow",
      updatedInput: checkedInput,
      decisionReason: own.decisionReason ?? {
        type: "tool",
        reason: own.message ?? `${tool.name} allowed this call`,
      },
      ...(own.message === undefined ? {} : { message: own.message }),
    };
  }
  if (own.behavior === "ask") return withReason(own, tool);

  const contentAllow = await findContentRule(context, permissionContext, anyTool, checkedInput, "allow");
  if (contentAllow)
    return { ...fromRule<I>(contentAllow, anyTool), updatedInput: checkedInput } as PermissionDecision<I>;

  const setAside = await setAsideAllowRule(context, permissionContext, anyTool, checkedInput);
  const message = own.message ?? `${tool.name} needs approval: no rule allows this call`;
  return {
    behavior: "ask",
    message: setAside
      ? `${message} (the allow rule ${formatRuleValue(setAside.value)} is set aside in auto mode: it would let any code run without the classifier)`
      : message,
    decisionReason: own.decisionReason ?? { type: "default", reason: "no rule allows this call" },
    ...(own.suggestions ? { suggestions: own.suggestions } : {}),
  };
}

/** In auto mode, the allow rule that would have allowed this call had auto mode not set it aside. */
async function setAsideAllowRule(
  context: ToolUseContext,
  permissionContext: ToolPermissionContext,
  tool: Tool,
  input: unknown,
): Promise<PermissionRule | undefined> {
  if (permissionContext.mode !== "auto") return undefined;
  const unfiltered = updatePermissionContext(permissionContext, { mode: "default" });
  const rule =
    findBlanketRule(unfiltered, tool, "allow") ??
    (await findContentRule(context, unfiltered, tool, input, "allow"));
  return rule && setAsideInAuto(rule) ? rule : undefined;
}

function withReason<I>(
  own: Extract<PermissionResult<I>, { behavior: "ask" }>,
  tool: Tool<I>,
): PermissionDecision<I> {
  return {
    ...own,
    decisionReason: own.decisionReason ?? {
      type: "tool",
      reason: own.message || `${tool.name} asked for approval`,
    },
  };
}
