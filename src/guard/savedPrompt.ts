// Whether Keel's allow of another agent's call took a prompt away from the person: the agent would have
// asked, and did not because Keel proved the call safe. `keel audit --summary` counts these as "prompts
// saved", so the count errs low: anything the agent might have run without asking is not counted.
import { builtinToolNames } from "../tools/catalog.ts";
import type { AgentCall, Verdict } from "./types.ts";

/**
 * Programs Claude Code runs without asking (its own read-only set, as far as Keel can tell), when a
 * command is just one of them: a prompt Keel's allow cannot have saved.
 */
const ASKED_WITHOUT_KEEL: ReadonlySet<string> = new Set([
  "cat",
  "cd",
  "date",
  "diff",
  "du",
  "echo",
  "file",
  "find",
  "git",
  "grep",
  "head",
  "id",
  "ls",
  "pwd",
  "rg",
  "stat",
  "tail",
  "tree",
  "uname",
  "wc",
  "which",
  "whoami",
]);

/** Claude Code's tools that Keel judges (tools/<name>/meta.ts) and that read, or write, paths. */
const judged = (access: "read" | "write") =>
  new Set(builtinToolNames((meta) => meta.judgesAgentCalls === true && meta.pathAccess === access));
/** Claude Code's tools that never prompt inside the project: reads and searches, and WebSearch. */
const NEVER_PROMPTING_TOOLS = new Set([...judged("read"), "WebSearch"]);
const EDIT_TOOLS = judged("write");

/** Async because the Bash branch loads the analyzer: a process deciding a Read never loads it. */
export async function savedAPrompt(call: AgentCall, verdict: Verdict): Promise<boolean> {
  if (verdict.behavior !== "allow") return false;
  // Gemini CLI asks before its hook runs: Keel can refuse there, never spare the person a prompt.
  if (call.agent === "gemini-cli") return false;
  // The agent's own dialog was about to show: Keel answered it.
  if (call.event === "PermissionRequest") return true;
  // Codex's PreToolUse can only refuse; elsewhere only Claude Code asks at PreToolUse.
  if (call.agent !== "claude-code") return false;
  // Modes where Claude Code does not ask (bypass), asks nobody (dontAsk), or has its own classifier (auto).
  const mode = call.mode ?? "default";
  if (mode !== "default" && mode !== "acceptEdits" && mode !== "plan") return false;
  if (NEVER_PROMPTING_TOOLS.has(call.agentTool)) return false;
  if (EDIT_TOOLS.has(call.agentTool)) return mode === "default";
  if (call.agentTool === "Bash") return !(await runsWithoutAsking(call));
  return true;
}

/** A Bash command that is one program Claude Code runs without asking (no pipes, no lists). */
async function runsWithoutAsking(call: AgentCall): Promise<boolean> {
  const command = (call.agentInput as { command?: unknown } | null)?.command;
  if (typeof command !== "string") return true;
  // Already loaded by the Bash tool that judged the call; imported here so that other calls skip it.
  const { understoodCommands } = await import("../shell/analyze/grammar/frontEnd.ts");
  let commands: ReturnType<typeof understoodCommands>;
  try {
    commands = understoodCommands(command);
  } catch {
    return true;
  }
  const only = commands?.length === 1 ? commands[0] : undefined;
  if (!only || only.redirects.length > 0 || only.assignments.length > 0) return false;
  return ASKED_WITHOUT_KEEL.has(only.simple.argv[0] ?? "");
}
