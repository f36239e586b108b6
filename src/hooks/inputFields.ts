// The fields every hook's stdin starts with, as Claude Code's hooks reference lists them: session_id,
// transcript_path, cwd, permission_mode (only for the events whose documented input carries it),
// hook_event_name, and agent_id / agent_type when the hook fires inside a sub-agent.
import type { HookEvent } from "./config.ts";
import type { HookSessionInfo } from "./runner.ts";

/** Events whose documented input has no permission_mode (the reference's JSON examples omit it). */
const WITHOUT_PERMISSION_MODE: ReadonlySet<HookEvent> = new Set<HookEvent>([
  "SessionStart",
  "SessionEnd",
  "Notification",
  "SubagentStart",
  "PreCompact",
]);

export function commonInputFields(
  event: HookEvent,
  session: HookSessionInfo,
  transcriptPath: string,
): Record<string, unknown> {
  return {
    session_id: session.sessionId,
    transcript_path: transcriptPath,
    cwd: session.cwd,
    ...(WITHOUT_PERMISSION_MODE.has(event) ? {} : { permission_mode: session.permissionMode }),
    hook_event_name: event,
    ...(session.agentId ? { agent_id: session.agentId } : {}),
    ...(session.agentId && session.agentType ? { agent_type: session.agentType } : {}),
  };
}
