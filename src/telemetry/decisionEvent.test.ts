// Which audit records become a `keel.tool_decision` event: must and must-not rows.
import { describe, expect, it } from "vitest";
import { type DecisionRecord, decisionEvent } from "./decisionEvent.ts";

function record(fields: Partial<DecisionRecord>): DecisionRecord {
  return {
    time: "2026-11-28T10:00:00.000Z",
    sessionId: "s",
    toolUseId: "toolu_1",
    tool: "Bash",
    inputSummary: '{"command":"ls"}',
    behavior: "allow",
    decidedBy: "the tool's own check (bash-analyzer)",
    hooks: [],
    durationMs: { total: 1, permission: 1, call: 0 },
    resultChars: 0,
    isError: false,
    ...fields,
  } as DecisionRecord;
}

const context = {
  surface: "agent" as const,
  appVersion: "0.1.0",
  details: false,
  redact: <T>(value: T) => value,
};

describe("decisionEvent", () => {
  it.each([
    ["an allow", record({})],
    ["a refusal", record({ behavior: "deny" })],
    [
      "another agent's call Keel had no opinion on",
      record({ behavior: "none", hookEvent: "PreToolUse", agent: "claude-code" }),
    ],
  ])("exports %s", (_name, entry) => expect(decisionEvent(entry, context)).toBeDefined());

  it.each([
    ["a call of Keel's own that failed before a decision", record({ behavior: "none" })],
    [
      "a classifier verdict that came after its call was decided",
      record({ classifierVerdictFor: "toolu_1" }),
    ],
  ])("does not export %s", (_name, entry) => expect(decisionEvent(entry, context)).toBeUndefined());
});
