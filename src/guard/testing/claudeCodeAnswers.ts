// Test helpers for keel hook claude-code: recorded events with another input or mode, and what Claude
// Code reads from the hook's stdout.
import { type RecordedEvent, recordedEvent } from "./world.ts";

export type Answer = "allow" | "deny" | "ask" | "silent";
export type Mode = "default" | "acceptEdits" | "plan" | "bypassPermissions" | "dontAsk" | "auto";

/** What Claude Code reads from the hook's stdout. */
export function answerOf(stdout: string): { answer: Answer; reason: string } {
  if (stdout === "") return { answer: "silent", reason: "" };
  const output = JSON.parse(stdout).hookSpecificOutput;
  if (output.hookEventName === "PermissionRequest")
    return { answer: output.decision.behavior, reason: output.decision.message ?? "" };
  return { answer: output.permissionDecision, reason: output.permissionDecisionReason ?? "" };
}

/** Events of one world, shaped as a test needs them. */
export function eventMaker(events: () => readonly RecordedEvent[]) {
  /** A recorded PreToolUse event of this tool, with another input and mode when given. */
  const pre = (tool: string, input?: Record<string, unknown>, mode: Mode = "default"): RecordedEvent => ({
    ...recordedEvent(events(), "PreToolUse", tool),
    permission_mode: mode,
    ...(input ? { tool_input: input } : {}),
  });
  /** A tool the recorded session did not offer: the recorded envelope, the documented input. */
  const documented = (
    tool: string,
    input: Record<string, unknown>,
    mode: Mode = "default",
  ): RecordedEvent => ({
    ...pre("Read", undefined, mode),
    tool_name: tool,
    tool_input: input,
  });
  const permissionRequest = (
    tool: string,
    input?: Record<string, unknown>,
    mode: Mode = "default",
  ): RecordedEvent => ({
    ...recordedEvent(events(), "PermissionRequest", tool),
    permission_mode: mode,
    ...(input ? { tool_input: input } : {}),
  });
  return { pre, documented, permissionRequest };
}
