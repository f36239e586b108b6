// Which lines of the audit log are records: the table is the check's specification.
import { describe, expect, it } from "vitest";
import { checkAuditLine } from "./recordSchema.ts";

const GOOD = {
  time: "2026-11-01T10:00:00.000Z",
  sessionId: "s1",
  toolUseId: "tu1",
  tool: "Read",
  inputSummary: '{"file_path":"/a"}',
  behavior: "allow",
  decidedBy: "allow rule Read from user settings",
  hooks: [{ hookName: "h", event: "PreToolUse", outcome: "success", exitCode: 0, durationMs: 3 }],
  durationMs: { total: 4, permission: 1, call: 2 },
  resultChars: 10,
  isError: false,
};

const line = (changes: Record<string, unknown>, drop: string[] = []) => {
  const value: Record<string, unknown> = { ...GOOD, ...changes };
  for (const key of drop) delete value[key];
  return JSON.stringify(value);
};

describe("checkAuditLine", () => {
  it.each([
    ["Keel's own record", line({})],
    ["a keel hook record", line({ agent: "claude-code", hookEvent: "PreToolUse", noOpinion: "x" })],
    ["with a decision reason of any shape", line({ decisionReason: { type: "rule", rule: {} } })],
    ["with a classifier verdict", line({ classifier: { behavior: "ask", reason: "r", durationMs: 5 } })],
    ["with an error code", line({ isError: true, errorCode: "permission_denied" })],
    ["with fields a later Keel added", line({ somethingNew: [1, 2] })],
  ])("a record: %s", (_name, text) => {
    expect(checkAuditLine(text)).toHaveProperty("record");
  });

  it.each([
    ["a number as the tool", line({ tool: 12 }), "tool: Invalid input: expected string, received number"],
    ["no session", line({}, ["sessionId"]), "sessionId:"],
    ["an unknown behavior", line({ behavior: "maybe" }), "behavior:"],
    ["hooks not a list", line({ hooks: "none" }), "hooks:"],
    [
      "a hook without its event",
      line({ hooks: [{ hookName: "h", outcome: "x", durationMs: 1 }] }),
      "hooks.0.event",
    ],
    ["durations as text", line({ durationMs: { total: "4", permission: 1, call: 2 } }), "durationMs.total"],
    ["isError as a string", line({ isError: "false" }), "isError:"],
    ["an agent that is not text", line({ agent: 7 }), "agent:"],
    ["JSON that is not an object", "[1,2,3]", "expected object"],
    ["null", "null", "expected object"],
    ["not JSON", '{"torn": ', "not JSON"],
  ])("not a record: %s", (_name, text, problem) => {
    const checked = checkAuditLine(text);
    expect(checked).toHaveProperty("problem");
    expect((checked as { problem: string }).problem).toContain(problem);
  });
});
