// `keel audit --summary`: calls per agent and tool, allowed / denied / left to a person / no opinion,
// with an agent's PermissionRequest counted as the later answer for the call it announced.
import { describe, expect, it } from "vitest";
import {
  ANNOUNCEMENT_GENERATION,
  formatAuditSummary,
  type SummarizedRecord,
  summarizeAudit,
} from "./summary.ts";

let time = 0;
function record(fields: Partial<SummarizedRecord>): SummarizedRecord {
  time++;
  return {
    time: new Date(Date.UTC(2026, 10, 25, 10, 0, time)).toISOString(),
    sessionId: "s1",
    toolUseId: "",
    tool: "Bash",
    inputSummary: '{"command":"ls"}',
    behavior: "allow",
    decidedBy: "the tool's own check (bash-analyzer)",
    hooks: [],
    durationMs: { total: 1, permission: 1, call: 0 },
    resultChars: 0,
    isError: false,
    ...fields,
  };
}

describe("summarizeAudit", () => {
  it("counts per agent and tool", () => {
    const rows = summarizeAudit([
      record({ agent: "claude-code", hookEvent: "PreToolUse" }),
      record({ agent: "claude-code", hookEvent: "PreToolUse", inputSummary: "rm", behavior: "deny" }),
      record({ agent: "claude-code", hookEvent: "PreToolUse", inputSummary: "npm i", behavior: "ask" }),
      record({ agent: "claude-code", hookEvent: "PreToolUse", tool: "TodoWrite", behavior: "none" }),
      record({ agent: "gemini-cli", hookEvent: "BeforeTool", tool: "run_shell_command" }),
      record({ tool: "Read" }),
      record({ tool: "Write", decisionReason: { type: "user", prompter: "terminal", choice: "once" } }),
    ]);
    expect(rows).toEqual([
      {
        agent: "claude-code",
        tool: "Bash",
        calls: 3,
        allowed: 1,
        denied: 1,
        leftToPerson: 1,
        noOpinion: 0,
        promptsSaved: 0,
      },
      {
        agent: "claude-code",
        tool: "TodoWrite",
        calls: 1,
        allowed: 0,
        denied: 0,
        leftToPerson: 0,
        noOpinion: 1,
        promptsSaved: 0,
      },
      {
        agent: "gemini-cli",
        tool: "run_shell_command",
        calls: 1,
        allowed: 1,
        denied: 0,
        leftToPerson: 0,
        noOpinion: 0,
        promptsSaved: 0,
      },
      {
        agent: "keel",
        tool: "Read",
        calls: 1,
        allowed: 1,
        denied: 0,
        leftToPerson: 0,
        noOpinion: 0,
        promptsSaved: 0,
      },
      {
        agent: "keel",
        tool: "Write",
        calls: 1,
        allowed: 0,
        denied: 0,
        leftToPerson: 1,
        noOpinion: 0,
        promptsSaved: 0,
      },
    ]);
  });

  it("counts a call announced by PreToolUse and answered at PermissionRequest once, with the later answer", () => {
    const rows = summarizeAudit([
      record({
        agent: "claude-code",
        hookEvent: "PreToolUse",
        tool: "Write",
        inputSummary: "w",
        behavior: "ask",
      }),
      record({
        agent: "claude-code",
        hookEvent: "PreToolUse",
        tool: "Write",
        inputSummary: "v",
        behavior: "ask",
      }),
      record({
        agent: "claude-code",
        hookEvent: "PermissionRequest",
        tool: "Write",
        inputSummary: "w",
        behavior: "allow",
      }),
      record({
        agent: "claude-code",
        hookEvent: "PermissionRequest",
        tool: "Write",
        inputSummary: "x",
        behavior: "deny",
      }),
    ]);
    expect(rows).toEqual([
      {
        agent: "claude-code",
        tool: "Write",
        calls: 3,
        allowed: 1,
        denied: 1,
        leftToPerson: 1,
        noOpinion: 0,
        promptsSaved: 0,
      },
    ]);
  });

  it("does not pair calls of different sessions", () => {
    const rows = summarizeAudit([
      record({ agent: "codex", hookEvent: "PreToolUse", sessionId: "a", behavior: "ask" }),
      record({ agent: "codex", hookEvent: "PermissionRequest", sessionId: "b", behavior: "allow" }),
    ]);
    expect(rows[0]).toMatchObject({ calls: 2, allowed: 1, leftToPerson: 1 });
  });
});

describe("summarizeAudit's memory bound", () => {
  it("pairs a follow-up only with the most recent announcements, so any log is summed in bounded memory", () => {
    const announce = (i: number) =>
      record({ agent: "codex", hookEvent: "PreToolUse", inputSummary: `call ${i}`, behavior: "ask" });
    const answer = (i: number) =>
      record({
        agent: "codex",
        hookEvent: "PermissionRequest",
        inputSummary: `call ${i}`,
        behavior: "allow",
      });
    const count = 2 * ANNOUNCEMENT_GENERATION + 1;
    const records = Array.from({ length: count }, (_, i) => announce(i));
    // Call 0 was dropped with its generation; the last ANNOUNCEMENT_GENERATION calls still wait for answers.
    const newest = count - 1;
    const oldestKept = count - ANNOUNCEMENT_GENERATION;
    const rows = summarizeAudit([...records, answer(0), answer(oldestKept), answer(newest)]);
    expect(rows).toEqual([
      {
        agent: "codex",
        tool: "Bash",
        calls: count + 1,
        allowed: 3,
        denied: 0,
        leftToPerson: count - 2,
        noOpinion: 0,
        promptsSaved: 0,
      },
    ]);
  });
});

describe("formatAuditSummary", () => {
  it("prints a table per agent with totals and the prompts saved", () => {
    const text = formatAuditSummary(
      summarizeAudit([
        record({ agent: "claude-code", hookEvent: "PreToolUse", savedPrompt: true }),
        record({ agent: "claude-code", hookEvent: "PreToolUse", tool: "Read", inputSummary: "r" }),
        record({ agent: "claude-code", hookEvent: "PreToolUse", inputSummary: "rm", behavior: "deny" }),
      ]),
    );
    expect(text).toContain("claude-code (through keel hook)");
    expect(text).toMatch(/Bash\s+2\s+1\s+1\s+0\s+0/);
    expect(text).toMatch(/all tools\s+3\s+2\s+1\s+0\s+0/);
    // Only the Bash allow took a prompt away; Claude Code reads files without asking anyway.
    expect(text).toContain("1 prompt(s) saved");
  });

  it("says when there is nothing", () => {
    expect(formatAuditSummary([])).toBe("No audit records.\n");
  });
});
