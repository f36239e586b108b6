// Which of Keel's allows took a prompt away from the person: must and must-not rows.
import { beforeAll, describe, expect, it } from "vitest";
import { initBashParser } from "../shell/analyze/grammar/parse.ts";
import { savedAPrompt } from "./savedPrompt.ts";
import type { AgentCall, AgentName, Verdict } from "./types.ts";

const allow: Verdict = { behavior: "allow", reason: "", decidedBy: "test" };

function call(agent: AgentName, event: string, tool: string, input: unknown, mode?: string): AgentCall {
  return {
    agent,
    event,
    agentTool: tool,
    agentInput: input,
    calls: [],
    projectDir: "/p",
    cwd: "/p",
    ...(mode ? { mode: mode as AgentCall["mode"] } : {}),
    sessionId: "s",
    toolUseId: "t",
  };
}

beforeAll(() => initBashParser());

describe("savedAPrompt", () => {
  it.each([
    [
      "Claude Code would ask about a pipeline",
      call("claude-code", "PreToolUse", "Bash", { command: "awk '{print $1}' f | sort" }),
    ],
    [
      "Claude Code's dialog was about to show",
      call("claude-code", "PermissionRequest", "Bash", { command: "ls" }),
    ],
    ["an edit in default mode", call("claude-code", "PreToolUse", "Edit", { file_path: "/p/a" }, "default")],
    ["a WebFetch", call("claude-code", "PreToolUse", "WebFetch", { url: "https://x" })],
    ["Codex's approval dialog", call("codex", "PermissionRequest", "Bash", { command: "make" })],
  ])("counts: %s", (_name, agentCall) => expect(savedAPrompt(agentCall, allow)).resolves.toBe(true));

  it.each([
    [
      "git status, which Claude Code runs without asking",
      call("claude-code", "PreToolUse", "Bash", { command: "git status" }),
    ],
    ["a Read", call("claude-code", "PreToolUse", "Read", { file_path: "/p/a" })],
    [
      "an edit in acceptEdits mode",
      call("claude-code", "PreToolUse", "Edit", { file_path: "/p/a" }, "acceptEdits"),
    ],
    [
      "bypass mode, where nothing is asked",
      call("claude-code", "PreToolUse", "Bash", { command: "make" }, "bypassPermissions"),
    ],
    [
      "Gemini CLI, which asks before its hook runs",
      call("gemini-cli", "BeforeTool", "run_shell_command", { command: "make" }),
    ],
    ["Codex's PreToolUse, which can only refuse", call("codex", "PreToolUse", "Bash", { command: "make" })],
  ])("does not count: %s", (_name, agentCall) => expect(savedAPrompt(agentCall, allow)).resolves.toBe(false));

  it("never counts what Keel did not allow", async () => {
    const asked = call("claude-code", "PermissionRequest", "Bash", { command: "make" });
    await expect(savedAPrompt(asked, { ...allow, behavior: "deny" })).resolves.toBe(false);
    await expect(savedAPrompt(asked, { ...allow, behavior: "none" })).resolves.toBe(false);
  });
});
