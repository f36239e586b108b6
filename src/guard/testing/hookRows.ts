// Test helper for the tables of keel hook answers: one row is an event, the answer the agent must read
// from stdout, and what the reply must say (its reason, the one-line stderr note).
import { expect } from "vitest";
import { handleHookEvent } from "../handle.ts";
import type { AgentName } from "../types.ts";
import type { HookWorld } from "./world.ts";

export interface HookRow<Answer extends string> {
  name: string;
  event: () => Record<string, unknown>;
  strict?: boolean;
  expected: Answer;
  reason?: RegExp;
  /** The one-line stderr note expected (input Keel cannot read); none when absent. */
  note?: RegExp;
}

/** Sends the row's event to keel hook `agent` in `world` and checks the answer, its reason and the note. */
export async function expectHookRow<Answer extends string>(
  agent: AgentName,
  row: HookRow<Answer>,
  world: HookWorld,
  answerOf: (stdout: string) => { answer: Answer; reason: string },
): Promise<void> {
  const reply = await handleHookEvent(
    agent,
    JSON.stringify(row.event()),
    world.options({ strict: row.strict }),
  );
  const { answer, reason } = answerOf(reply.stdout);
  expect(answer).toBe(row.expected);
  if (row.note) expect(reply.note).toMatch(row.note);
  else expect(reply.note).toBeUndefined();
  if (row.reason) expect(reason).toMatch(row.reason);
}
