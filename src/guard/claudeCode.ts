// Claude Code's PreToolUse and PermissionRequest hooks. Its tools are Keel's tools under the same names
// and inputs; an answer is `hookSpecificOutput` JSON on stdout (permissionDecision for PreToolUse,
// decision.behavior for PermissionRequest), and silence leaves the call to Claude Code's own rules.
import type { Env } from "../tool/context.ts";
import type { AgentAdapter } from "./adapter.ts";
import {
  approvalText,
  askText,
  optionalString,
  projectDirOf,
  readMode,
  refusalText,
  requireAbsolutePath,
  requireObject,
  requireString,
  UnansweredEvent,
} from "./eventFields.ts";
import { isJudgedTool } from "./keelTools.ts";
import type { AgentCall, Verdict } from "./types.ts";

const EVENTS = ["PreToolUse", "PermissionRequest"] as const;

/**
 * Fields of Claude Code's tools that Keel's tools lack and that do not change what a call runs, reads or
 * writes (size and paging knobs; the sandbox switch, since Keel never counts on a sandbox for the agent).
 * Any other field Keel does not know means no opinion.
 */
const IGNORED_FIELDS: Record<string, readonly string[]> = {
  Bash: ["dangerouslyDisableSandbox"],
  Read: ["allow_large"],
  Grep: ["-o"],
  WebFetch: ["offset"],
};

function withoutIgnoredFields(toolName: string, input: Record<string, unknown>): Record<string, unknown> {
  const ignored = Object.hasOwn(IGNORED_FIELDS, toolName) ? IGNORED_FIELDS[toolName] : undefined;
  if (!ignored) return input;
  return Object.fromEntries(Object.entries(input).filter(([field]) => !ignored.includes(field)));
}

function toCall(event: Record<string, unknown>, env: Env) {
  const hookEvent = requireString(event, "hook_event_name");
  if (!(EVENTS as readonly string[]).includes(hookEvent))
    throw new UnansweredEvent(
      `unknown event ${hookEvent} (keel hook claude-code answers ${EVENTS.join(" and ")})`,
    );
  const toolName = requireString(event, "tool_name");
  const toolInput = requireObject(event, "tool_input");
  const cwd = requireAbsolutePath(event, "cwd");
  const { mode, unknown } = readMode(event);
  const judged = isJudgedTool(toolName);
  const call: AgentCall = {
    agent: "claude-code",
    event: hookEvent,
    agentTool: toolName,
    agentInput: toolInput,
    // Keel's tools follow Claude Code's: same names, same input fields.
    calls: judged ? [{ tool: toolName, input: withoutIgnoredFields(toolName, toolInput) }] : [],
    ...(judged ? {} : { unjudged: `Keel does not judge ${toolName} calls` }),
    projectDir: projectDirOf(cwd, env.CLAUDE_PROJECT_DIR),
    cwd,
    ...(mode ? { mode } : {}),
    sessionId: optionalString(event, "session_id") ?? "unknown",
    toolUseId: optionalString(event, "tool_use_id") ?? "",
  };
  return {
    call,
    ...(unknown ? { note: `unknown permission_mode "${unknown}", decided as default` } : {}),
  };
}

function preToolUse(permissionDecision: "allow" | "deny" | "ask", reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision,
      permissionDecisionReason: reason,
    },
  });
}

function permissionRequest(decision: { behavior: "allow" } | { behavior: "deny"; message: string }): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision } });
}

function reply(call: AgentCall, verdict: Verdict, options: { strict: boolean }): string {
  if (call.event === "PermissionRequest") {
    // Claude Code is about to show its dialog: Keel answers for the person only when it is sure.
    if (verdict.behavior === "allow") return permissionRequest({ behavior: "allow" });
    if (verdict.behavior === "deny")
      return permissionRequest({ behavior: "deny", message: refusalText(verdict) });
    return "";
  }
  if (verdict.behavior === "allow") return preToolUse("allow", approvalText(verdict));
  if (verdict.behavior === "deny") return preToolUse("deny", refusalText(verdict));
  if (verdict.behavior === "ask" && (options.strict || verdict.firm))
    return preToolUse("ask", askText(verdict));
  return "";
}

export const claudeCodeAdapter: AgentAdapter = {
  agent: "claude-code",
  events: EVENTS,
  silence: "",
  toCall,
  reply,
};
