import { describe, expect, it } from "vitest";
import { keelWorld, runKeel } from "../cli/testing/keelProcess.ts";

const GEMINI_SESSION = "6f1c2a0e-5b7d-4c1e-9a8f-2d3e4f5a6b7c";
const CODEX_SESSION = "019a2b3c-4d5e-7f60-8a9b-0c1d2e3f4a5b";
const SECRET = "not-a-real-token-1234567890";

describe("keel audit of other agents' calls", () => {
  it("keeps their session ids readable, names tools both ways, and still redacts secrets", async () => {
    const w = keelWorld();
    const world = {
      ...w,
      env: {
        ...w.env,
        GEMINI_SESSION_ID: GEMINI_SESSION,
        CODEX_SESSION_ID: CODEX_SESSION,
        CLAUDE_CODE_SESSION_ID: "claude-session-0001",
        DEPLOY_TOKEN: SECRET,
      },
    };
    const gemini = await runKeel(
      ["hook", "gemini-cli"],
      world,
      JSON.stringify({
        session_id: GEMINI_SESSION,
        cwd: w.project,
        hook_event_name: "BeforeTool",
        timestamp: "2026-11-25T10:00:00.000Z",
        tool_name: "run_shell_command",
        tool_input: { command: `ls && echo ${SECRET}` },
      }),
    );
    expect(gemini.code).toBe(0);
    const codex = await runKeel(
      ["hook", "codex"],
      world,
      JSON.stringify({
        session_id: CODEX_SESSION,
        turn_id: "turn-1",
        cwd: w.project,
        hook_event_name: "PreToolUse",
        model: "gpt-5-codex",
        permission_mode: "default",
        tool_name: "apply_patch",
        tool_use_id: "call_1",
        tool_input: { command: "*** Begin Patch\n*** Add File: notes.txt\n+hi\n*** End Patch\n" },
      }),
    );
    expect(codex.code).toBe(0);

    const records = (await runKeel(["audit", "--json"], world)).stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toEqual([
      expect.objectContaining({ sessionId: GEMINI_SESSION, tool: "run_shell_command", keelTools: ["Bash"] }),
      expect.objectContaining({ sessionId: CODEX_SESSION, tool: "apply_patch", keelTools: ["Write"] }),
    ]);
    // The secret in the command is still redacted; the session ids are not.
    expect(JSON.stringify(records)).not.toContain(SECRET);
    expect(String(records[0]?.inputSummary)).toContain("[REDACTED:DEPLOY_TOKEN]");
    expect(JSON.stringify(records)).not.toMatch(/REDACTED:(GEMINI|CODEX)_SESSION_ID/);

    const session = await runKeel(["audit", "--session", GEMINI_SESSION], world);
    expect(session.stdout).toMatch(/run_shell_command \(Bash\)\s+\S+\s+by .*\(for gemini-cli, BeforeTool\)/);
    expect(session.stdout).not.toMatch(/apply_patch/);
    const byKeelName = await runKeel(["audit", "--tool", "Write"], world);
    expect(byKeelName.stdout).toMatch(/apply_patch \(Write\)/);
    const byOwnName = await runKeel(["audit", "--tool", "apply_patch"], world);
    expect(byOwnName.stdout).toMatch(/apply_patch \(Write\)/);
    const summary = await runKeel(["audit", "--summary"], world);
    expect(summary.stdout).toMatch(
      /gemini-cli \(through keel hook\)\n.*\n {2}run_shell_command \(Bash\) +1 /,
    );
    expect(summary.stdout).toMatch(/codex \(through keel hook\)\n.*\n {2}apply_patch \(Write\) +1 /);
  });
});
