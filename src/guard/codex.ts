// Codex CLI's PreToolUse and PermissionRequest hooks. PreToolUse covers shell commands (`Bash`),
// `apply_patch` and MCP tools, and can only refuse (`permissionDecision: "deny"`; Codex rejects an
// "allow" or "ask" there); PermissionRequest comes when Codex is about to ask for approval of a shell
// command, and may answer `decision.behavior` allow or deny for the person. Silence leaves it to Codex.
import { resolve } from "node:path";
import type { Env } from "../tool/context.ts";
import type { AgentAdapter } from "./adapter.ts";
import { patchedFiles } from "./applyPatch.ts";
import {
  askText,
  optionalString,
  readMode,
  refusalText,
  requireAbsolutePath,
  requireObject,
  requireString,
  UnansweredEvent,
} from "./eventFields.ts";
import type { AgentCall, KeelCall, Verdict } from "./types.ts";

const EVENTS = ["PreToolUse", "PermissionRequest"] as const;

/** The Keel calls for a Codex tool call, or why there are none (`unreadable`: input Keel cannot read). */
type Mapped = { calls: KeelCall[] } | { unjudged: string; unreadable?: true };

function mapCalls(toolName: string, input: Record<string, unknown>, cwd: string): Mapped {
  if (toolName === "Bash") {
    const command = input.command;
    return typeof command === "string" && command !== ""
      ? { calls: [{ tool: "Bash", input: { command } }] }
      : { unjudged: "no command in the input", unreadable: true };
  }
  if (toolName === "apply_patch") {
    const patch = typeof input.command === "string" ? input.command : input.patch;
    const files = typeof patch === "string" ? patchedFiles(patch) : [];
    if (files.length === 0)
      return { unjudged: "no file headers Keel can read in the patch", unreadable: true };
    // Keel judges each file the patch adds, changes, moves or deletes as a write of that file.
    return {
      calls: files.map((file) => ({ tool: "Write", input: { file_path: resolve(cwd, file), content: "" } })),
    };
  }
  if (toolName.startsWith("mcp__")) return { calls: [{ tool: toolName, input }] };
  return { unjudged: `Keel does not judge ${toolName} calls` };
}

function toCall(event: Record<string, unknown>, _env: Env) {
  const hookEvent = requireString(event, "hook_event_name");
  if (!(EVENTS as readonly string[]).includes(hookEvent))
    throw new UnansweredEvent(`unknown event ${hookEvent} (keel hook codex answers ${EVENTS.join(" and ")})`);
  const toolName = requireString(event, "tool_name");
  const toolInput = requireObject(event, "tool_input");
  const cwd = requireAbsolutePath(event, "cwd");
  const { mode, unknown } = readMode(event);
  const mapped = mapCalls(toolName, toolInput, cwd);
  const call: AgentCall = {
    agent: "codex",
    event: hookEvent,
    agentTool: toolName,
    agentInput: toolInput,
    calls: "calls" in mapped ? mapped.calls : [],
    ...("unjudged" in mapped ? { unjudged: mapped.unjudged } : {}),
    ...("unreadable" in mapped ? { unreadable: true } : {}),
    projectDir: cwd,
    cwd,
    ...(mode ? { mode } : {}),
    sessionId: optionalString(event, "session_id") ?? "unknown",
    toolUseId: optionalString(event, "tool_use_id") ?? optionalString(event, "turn_id") ?? "",
  };
  const notes = [
    ...(unknown ? [`unknown permission_mode "${unknown}", decided as default`] : []),
    ...("unreadable" in mapped ? [`${toolName}: ${mapped.unjudged}`] : []),
  ];
  return { call, ...(notes.length > 0 ? { note: notes.join("; ") } : {}) };
}

function reply(call: AgentCall, verdict: Verdict, options: { strict: boolean }): string {
  if (call.event === "PermissionRequest") {
    if (verdict.behavior === "allow")
      return JSON.stringify({
        hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
      });
    if (verdict.behavior === "deny")
      return JSON.stringify({
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: { behavior: "deny", message: refusalText(verdict) },
        },
      });
    return "";
  }
  // PreToolUse can only refuse: a firm ask (every ask with strict) is a refusal the model can explain,
  // since Codex's own policy may run the call without asking anyone.
  const firmAsk = verdict.behavior === "ask" && (options.strict || verdict.firm === true);
  if (verdict.behavior !== "deny" && !firmAsk) return "";
  const reason = firmAsk
    ? `${askText(verdict)}. Keel needs a person's approval for this call, which a Codex PreToolUse hook cannot ask for; ask the person to run it or to add an allow rule to Keel's settings.`
    : refusalText(verdict);
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason,
    },
  });
}

export const codexAdapter: AgentAdapter = {
  agent: "codex",
  events: EVENTS,
  silence: "",
  toCall,
  reply,
};
