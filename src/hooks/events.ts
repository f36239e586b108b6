// The events outside a tool call, for the agent loop: each builds its stdin fields (the Claude Code
// names), runs the matching hooks and returns the aggregated result.
import { parseRuleCached, RuleParseError } from "../permissions/rules.ts";
import type { RuleSuggestion } from "../permissions/types.ts";
import { aggregateEvent, type HookEventResult } from "./aggregate.ts";
import type { HookEvent } from "./config.ts";
import type { HookRunner, HookSessionInfo } from "./runner.ts";

interface EventArgs {
  session: HookSessionInfo;
  signal: AbortSignal;
}

async function runEvent(
  runner: HookRunner,
  event: HookEvent,
  args: EventArgs,
  fields: Record<string, unknown>,
  matchQuery?: string,
): Promise<HookEventResult> {
  if (!runner.hasHooks(event)) return aggregateEvent(event, []);
  const results = await runner.run({
    event,
    session: args.session,
    fields,
    ...(matchQuery === undefined ? {} : { matchQuery }),
    signal: args.signal,
  });
  return aggregateEvent(event, results);
}

/** `block`: the prompt is refused (reason shown to the user); additionalContext and plain stdout join the prompt. */
export function runUserPromptSubmitHooks(
  runner: HookRunner,
  args: EventArgs & { prompt: string },
): Promise<HookEventResult> {
  return runEvent(runner, "UserPromptSubmit", args, { prompt: args.prompt });
}

/** `block`: the model must go on; the reason tells it how. `stopHookActive` is true when already continuing for a Stop hook. */
export function runStopHooks(
  runner: HookRunner,
  args: EventArgs & { stopHookActive: boolean; lastAssistantMessage?: string },
): Promise<HookEventResult> {
  return runEvent(runner, "Stop", args, {
    stop_hook_active: args.stopHookActive,
    last_assistant_message: args.lastAssistantMessage ?? "",
  });
}

/** Matcher tested against the agent type. `agentTranscriptPath` is the sub-agent's own transcript. */
export function runSubagentStopHooks(
  runner: HookRunner,
  args: EventArgs & {
    stopHookActive: boolean;
    agentId: string;
    agentType: string;
    agentTranscriptPath?: string;
    lastAssistantMessage?: string;
  },
): Promise<HookEventResult> {
  const fields: Record<string, unknown> = {
    stop_hook_active: args.stopHookActive,
    agent_id: args.agentId,
    agent_type: args.agentType,
    agent_transcript_path: args.agentTranscriptPath ?? "",
    last_assistant_message: args.lastAssistantMessage ?? "",
  };
  return runEvent(runner, "SubagentStop", args, fields, args.agentType);
}

/** Matcher tested against the agent type. additionalContext goes to the sub-agent. */
export function runSubagentStartHooks(
  runner: HookRunner,
  args: EventArgs & { agentId: string; agentType: string },
): Promise<HookEventResult> {
  return runEvent(
    runner,
    "SubagentStart",
    args,
    { agent_id: args.agentId, agent_type: args.agentType },
    args.agentType,
  );
}

export type SessionStartSource = "startup" | "resume" | "clear" | "compact";

/** Matcher tested against the source. additionalContext and plain stdout are context for the model. */
export function runSessionStartHooks(
  runner: HookRunner,
  args: EventArgs & { source: SessionStartSource; model?: string },
): Promise<HookEventResult> {
  const fields: Record<string, unknown> = { source: args.source };
  if (args.model !== undefined) fields.model = args.model;
  return runEvent(runner, "SessionStart", args, fields, args.source);
}

export type SessionEndReason = "clear" | "logout" | "prompt_input_exit" | "other";

/** Runs with a 1.5 s default timeout so exit is not held up. */
export function runSessionEndHooks(
  runner: HookRunner,
  args: EventArgs & { reason: SessionEndReason },
): Promise<HookEventResult> {
  return runEvent(runner, "SessionEnd", args, { reason: args.reason }, args.reason);
}

export function runNotificationHooks(
  runner: HookRunner,
  args: EventArgs & { message: string; notificationType?: string; title?: string },
): Promise<HookEventResult> {
  const fields: Record<string, unknown> = { message: args.message };
  if (args.notificationType !== undefined) fields.notification_type = args.notificationType;
  if (args.title !== undefined) fields.title = args.title;
  return runEvent(runner, "Notification", args, fields, args.notificationType);
}

/** Matcher tested against the trigger. `block` asks the agent not to compact now. */
export function runPreCompactHooks(
  runner: HookRunner,
  args: EventArgs & { trigger: "manual" | "auto"; customInstructions?: string },
): Promise<HookEventResult> {
  return runEvent(
    runner,
    "PreCompact",
    args,
    { trigger: args.trigger, custom_instructions: args.customInstructions ?? "" },
    args.trigger,
  );
}

const DESTINATIONS: Record<string, string> = {
  local: "localSettings",
  project: "projectSettings",
  user: "userSettings",
  session: "session",
  cliArg: "cliArg",
  policy: "policySettings",
};

/** The reference's suggestion shape, so existing PermissionRequest hooks read it unchanged. */
function toClaudeSuggestion(suggestion: RuleSuggestion): Record<string, unknown> {
  const value = parseRuleCached(suggestion.rule);
  const rule = value instanceof RuleParseError ? { toolName: suggestion.rule } : value;
  return {
    type: "addRules",
    rules: [rule],
    behavior: suggestion.behavior,
    destination: DESTINATIONS[suggestion.destination] ?? suggestion.destination,
  };
}

/** Before a permission dialog: a hook may answer for the user (`permissionDecision`; deny beats allow). */
export function runPermissionRequestHooks(
  runner: HookRunner,
  args: EventArgs & {
    toolName: string;
    toolInput: unknown;
    suggestions?: readonly RuleSuggestion[];
  },
): Promise<HookEventResult> {
  // Like PreToolUse's input but without tool_use_id, as the reference documents it.
  const fields: Record<string, unknown> = {
    tool_name: args.toolName,
    tool_input: args.toolInput,
    permission_suggestions: (args.suggestions ?? []).map(toClaudeSuggestion),
  };
  return runEvent(runner, "PermissionRequest", args, fields, args.toolName);
}
