// The loop's hook points outside tool calls (UserPromptSubmit, Stop, PreCompact, SessionStart/End, and
// Notification for the terminal UI), behind one small interface so the loop does not care whether hooks
// are configured; the runner from src/hooks fills it.
import {
  runNotificationHooks,
  runPreCompactHooks,
  runSessionEndHooks,
  runSessionStartHooks,
  runStopHooks,
  runUserPromptSubmitHooks,
  type SessionEndReason,
  type SessionStartSource,
} from "../hooks/events.ts";
import type { HookRunner, HookSessionInfo } from "../hooks/runner.ts";

export interface LoopHookAnswer {
  /** UserPromptSubmit: refused (reason for the user). Stop: go on (reason for the model). PreCompact: do not compact. */
  block?: string;
  /** Text for the model (UserPromptSubmit, SessionStart). */
  additionalContext: string[];
  /** Text for the user. */
  userMessages: string[];
  /** `continue: false`. */
  stop?: string;
}

export interface LoopHooks {
  userPromptSubmit(prompt: string, signal: AbortSignal): Promise<LoopHookAnswer>;
  /** `lastAssistantMessage`: the text of the model's final answer (last_assistant_message). */
  stop(stopHookActive: boolean, signal: AbortSignal, lastAssistantMessage?: string): Promise<LoopHookAnswer>;
  preCompact(
    trigger: "manual" | "auto",
    instructions: string | undefined,
    signal: AbortSignal,
  ): Promise<LoopHookAnswer>;
  sessionStart(source: SessionStartSource, signal: AbortSignal, model?: string): Promise<LoopHookAnswer>;
  sessionEnd(reason: SessionEndReason, signal: AbortSignal): Promise<LoopHookAnswer>;
  /** The person's attention is needed (notification_type: permission_prompt, idle_prompt, elicitation_dialog). */
  notification(notice: AttentionNotice, signal: AbortSignal): Promise<LoopHookAnswer>;
}

export interface AttentionNotice {
  message: string;
  type: "permission_prompt" | "idle_prompt" | "elicitation_dialog";
  title?: string;
}

const NONE: LoopHookAnswer = Object.freeze({ additionalContext: [], userMessages: [] });

export const NO_HOOKS: LoopHooks = {
  userPromptSubmit: async () => NONE,
  stop: async () => NONE,
  preCompact: async () => NONE,
  sessionStart: async () => NONE,
  sessionEnd: async () => NONE,
  notification: async () => NONE,
};

function answer(result: Awaited<ReturnType<typeof runStopHooks>>): LoopHookAnswer {
  return {
    ...(result.block ? { block: result.block.reason } : {}),
    additionalContext: result.additionalContext,
    userMessages: result.userMessages,
    ...(result.preventContinuation ? { stop: result.stopReason ?? "continue: false" } : {}),
  };
}

/** The configured hooks of a session; `session()` is read at each event (mode and cwd change). */
export function hooksFromRunner(runner: HookRunner, session: () => HookSessionInfo): LoopHooks {
  return {
    userPromptSubmit: async (prompt, signal) =>
      answer(await runUserPromptSubmitHooks(runner, { session: session(), signal, prompt })),
    stop: async (stopHookActive, signal, lastAssistantMessage) =>
      answer(
        await runStopHooks(runner, {
          session: session(),
          signal,
          stopHookActive,
          ...(lastAssistantMessage === undefined ? {} : { lastAssistantMessage }),
        }),
      ),
    preCompact: async (trigger, customInstructions, signal) =>
      answer(
        await runPreCompactHooks(runner, {
          session: session(),
          signal,
          trigger,
          ...(customInstructions ? { customInstructions } : {}),
        }),
      ),
    sessionStart: async (source, signal, model) =>
      answer(
        await runSessionStartHooks(runner, {
          session: session(),
          signal,
          source,
          ...(model === undefined ? {} : { model }),
        }),
      ),
    sessionEnd: async (reason, signal) =>
      answer(await runSessionEndHooks(runner, { session: session(), signal, reason })),
    notification: async (notice, signal) =>
      answer(
        await runNotificationHooks(runner, {
          session: session(),
          signal,
          message: notice.message,
          notificationType: notice.type,
          ...(notice.title === undefined ? {} : { title: notice.title }),
        }),
      ),
  };
}
