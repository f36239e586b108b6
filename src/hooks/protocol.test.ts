// The Claude Code hook protocol, walked with real scripts in bash and in python3: every exit code and
// every JSON output path of PreToolUse, PostToolUse and PostToolUseFailure.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostToolUseHookResult, PreToolUseHookResult } from "../pipeline/services.ts";
import type { HookRunner } from "./runner.ts";
import {
  BASH_HOOK,
  createHookProject,
  type HookProject,
  PYTHON_HOOK,
  scenarioTool,
  toolHooks,
} from "./testing.ts";

const tool = scenarioTool();
let project: HookProject;
const runners: Record<string, HookRunner> = {};
beforeAll(() => {
  project = createHookProject([tool]);
  runners.bash = project.runner(toolHooks(BASH_HOOK));
  runners.python = project.runner(toolHooks(PYTHON_HOOK));
});
afterAll(() => project.cleanup());

const signal = new AbortController().signal;
function pre(lang: string, scenario: string): Promise<PreToolUseHookResult> {
  const input = { text: "hello", pre: scenario };
  return runners[lang]!.preToolUse({
    tool,
    input,
    toolUseId: `tu-${lang}-${scenario}`,
    context: project.context,
    signal,
  });
}
function post(lang: string, scenario: string): Promise<PostToolUseHookResult> {
  const input = { text: "hello", post: scenario };
  return runners[lang]!.postToolUse({
    tool,
    input,
    toolUseId: "tu",
    context: project.context,
    signal,
    response: "hello",
  });
}

type Expect = (result: PreToolUseHookResult, lang: string) => void;
const PRE_TOOL_USE: Array<[string, Expect]> = [
  ["allow", (r, l) => expect(r).toMatchObject({ decision: "allow", reason: `${l} says fine` })],
  ["deny", (r, l) => expect(r).toMatchObject({ decision: "deny", reason: `${l} policy forbids this` })],
  ["ask", (r, l) => expect(r).toMatchObject({ decision: "ask", reason: `${l} wants a human` })],
  ["approve", (r) => expect(r).toMatchObject({ decision: "allow", reason: "legacy approve" })],
  ["block", (r, l) => expect(r).toMatchObject({ decision: "deny", reason: `legacy block from ${l}` })],
  [
    "rewrite",
    (r, l) =>
      expect(r).toMatchObject({
        decision: "allow",
        updatedInput: { text: `rewritten by ${l}`, pre: "rewrite" },
      }),
  ],
  ["context", (r, l) => expect(r.additionalContext).toEqual([`${l} context for PreToolUse`])],
  [
    "stop",
    (r, l) => expect(r).toMatchObject({ preventContinuation: true, stopReason: `${l} stops the session` }),
  ],
  ["system", (r, l) => expect(r.userMessages).toEqual([`${l} says hello to the user`])],
  [
    "suppress",
    (r) =>
      expect(r).toMatchObject({
        additionalContext: [],
        userMessages: [],
        outcomes: [{ outcome: "success" }],
      }),
  ],
  [
    "plain",
    (r) =>
      expect(r).toMatchObject({
        additionalContext: [],
        userMessages: [],
        outcomes: [{ outcome: "success", exitCode: 0 }],
      }),
  ],
  [
    "exit2",
    (r, l) => {
      expect(r).toMatchObject({ decision: "deny", reason: `${l} blocked: PreToolUse` });
      expect(r.outcomes[0]).toMatchObject({ outcome: "blocking", exitCode: 2 });
    },
  ],
  [
    "exit1",
    (r, l) => {
      expect(r.decision).toBeUndefined();
      expect(r.outcomes[0]).toMatchObject({ outcome: "non_blocking_error", exitCode: 1 });
      expect(r.userMessages[0]).toMatch(/failed with exit code 1/);
      expect(r.userMessages[0]).toContain(`${l} warning on stderr`);
    },
  ],
  [
    "exit3",
    (r, l) => {
      expect(r.decision).toBeUndefined();
      expect(r.outcomes[0]).toMatchObject({ outcome: "non_blocking_error", exitCode: 3 });
      expect(r.userMessages[0]).toContain(`${l} odd exit`);
    },
  ],
  [
    "garbage",
    (r, l) => {
      expect(r.decision).toBeUndefined();
      expect(r.outcomes[0]).toMatchObject({ outcome: "non_blocking_error" });
      expect(r.userMessages[0]).toMatch(/printed invalid JSON/);
      expect(r.userMessages[0]).toContain(`${l} garbage stderr`);
    },
  ],
  [
    "wrongshape",
    (r) => {
      expect(r.decision).toBeUndefined();
      expect(r.userMessages[0]).toMatch(
        /JSON Keel does not understand \(hookSpecificOutput\.permissionDecision/,
      );
    },
  ],
  [
    "crash",
    (r) => {
      expect(r.decision).toBeUndefined();
      expect(r.outcomes[0]).toMatchObject({ outcome: "non_blocking_error" });
      expect(r.userMessages[0]).toMatch(
        /was killed by SIGKILL|failed with exit code 1[\s\S]*python hook crashed/,
      );
    },
  ],
];

describe.each(["bash", "python"])("PreToolUse with a %s hook", (lang) => {
  it.each(PRE_TOOL_USE)("%s", async (scenario, check) => {
    const result = await pre(lang, scenario);
    expect(result.outcomes).toHaveLength(1);
    check(result, lang === "bash" ? "bash" : "python");
  });

  it("gets the documented stdin fields and both project-dir variables", async () => {
    const result = await pre(lang, "env");
    expect(result.additionalContext).toEqual([`KEEL=${project.dir} CLAUDE=${project.dir}`]);
    const seen = project.log().find((entry) => entry.tool_use_id === `tu-${lang}-env`);
    expect(seen).toEqual({
      session_id: "session-1",
      transcript_path: `${project.dir}/session-1.jsonl`,
      cwd: project.dir,
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: "Echo",
      tool_input: { text: "hello", pre: "env" },
      tool_use_id: `tu-${lang}-env`,
    });
  });
});

type PostExpect = (result: PostToolUseHookResult, lang: string) => void;
const POST_TOOL_USE: Array<[string, PostExpect]> = [
  ["block", (r, l) => expect(r.blockReason).toBe(`legacy block from ${l}`)],
  ["exit2", (r, l) => expect(r.blockReason).toBe(`${l} blocked: PostToolUse`)],
  ["context", (r, l) => expect(r.additionalContext).toEqual([`${l} context for PostToolUse`])],
  [
    "stop",
    (r, l) => expect(r).toMatchObject({ preventContinuation: true, stopReason: `${l} stops the session` }),
  ],
  ["system", (r, l) => expect(r.userMessages).toEqual([`${l} says hello to the user`])],
  ["exit1", (r, l) => expect(r.userMessages[0]).toContain(`${l} warning on stderr`)],
  ["garbage", (r, l) => expect(r.userMessages[0]).toContain(`${l} garbage stderr`)],
  ["plain", (r) => expect(r).toMatchObject({ additionalContext: [], userMessages: [] })],
];

describe.each(["bash", "python"])("PostToolUse with a %s hook", (lang) => {
  it.each(POST_TOOL_USE)("%s", async (scenario, check) => {
    const result = await post(lang, scenario);
    expect(result.outcomes).toHaveLength(1);
    if (scenario !== "block" && scenario !== "exit2") expect(result.blockReason).toBeUndefined();
    check(result, lang === "bash" ? "bash" : "python");
  });

  it("PostToolUse gets tool_response; PostToolUseFailure gets error and is_interrupt", async () => {
    await post(lang, `silent-${lang}`);
    const failure = await runners[lang]!.postToolUseFailure({
      tool,
      input: { text: "fail", post: "context" },
      toolUseId: `failure-${lang}`,
      context: project.context,
      signal,
      error: "the tool failed on purpose",
      isInterrupt: false,
    });
    const name = lang === "bash" ? "bash" : "python";
    expect(failure.additionalContext).toEqual([`${name} context for PostToolUseFailure`]);
    const entries = project.log();
    expect(entries.find((e) => (e.tool_input as { post?: string }).post === `silent-${lang}`)).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_response: "hello",
    });
    expect(entries.find((e) => e.tool_use_id === `failure-${lang}`)).toMatchObject({
      hook_event_name: "PostToolUseFailure",
      error: "the tool failed on purpose",
      is_interrupt: false,
    });
  });
});
