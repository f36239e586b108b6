// `keel hook claude-code` beyond the table of recorded events: where the project and the current
// directory come from, Claude Code settings Keel only partly knows, and bad input (a refusal with exit
// code 2 and one line on stderr, never an allow) and broken settings (every call refused, saying where).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleHookEvent } from "./handle.ts";
import { answerOf, eventMaker } from "./testing/claudeCodeAnswers.ts";
import {
  createHookWorld,
  type HookWorld,
  type RecordedEvent,
  recordedClaudeCodeEvents,
  recordedEvent,
} from "./testing/world.ts";

let world: HookWorld;
let events: RecordedEvent[];
beforeAll(() => {
  world = createHookWorld({ claudeUser: { permissions: { deny: ["Bash(rm:*)"] } } });
  events = recordedClaudeCodeEvents(world);
});
afterAll(() => world.cleanup());

const { pre } = eventMaker(() => events);

describe("keel hook claude-code: the project and the current directory", () => {
  it("reads the project's settings from CLAUDE_PROJECT_DIR when Claude Code works in a subfolder", async () => {
    const nested = createHookWorld({ claudeProject: { permissions: { deny: ["Read(./src/app.ts)"] } } });
    try {
      const event = {
        ...recordedEvent(recordedClaudeCodeEvents(nested), "PreToolUse", "Read"),
        cwd: join(nested.project, "src"),
        tool_input: { file_path: join(nested.project, "src/app.ts") },
      };
      const inProject = await handleHookEvent("claude-code", JSON.stringify(event), {
        ...nested.options(),
        env: { ...nested.env, CLAUDE_PROJECT_DIR: nested.project },
      });
      expect(answerOf(inProject.stdout).answer).toBe("deny");
      // Without the variable, the subfolder is the project: its own (absent) settings apply.
      const alone = await handleHookEvent("claude-code", JSON.stringify(event), nested.options());
      expect(answerOf(alone.stdout).answer).toBe("allow");
    } finally {
      nested.cleanup();
    }
  });

  it("judges a Bash command from the directory Claude Code is in", async () => {
    const env = { ...world.env, CLAUDE_PROJECT_DIR: world.project };
    const from = async (cwd: string) => {
      const event = { ...pre("Bash", { command: "cat ../README.md" }), cwd };
      return answerOf(
        (await handleHookEvent("claude-code", JSON.stringify(event), { ...world.options(), env })).stdout,
      );
    };
    // From secrets/, ../README.md is the project's; from the project root it is outside.
    expect((await from(join(world.project, "secrets"))).answer).toBe("allow");
    expect((await from(world.project)).answer).toBe("silent");
  });
});

describe("keel hook claude-code: Claude Code settings Keel only partly knows", () => {
  it("decides with settings whose hooks Keel does not run (prompt, agent, mcp_tool, http)", async () => {
    const hooks = [
      { type: "prompt", prompt: "Is this safe?" },
      { type: "agent", prompt: "Review it" },
      { type: "mcp_tool", server: "guard", tool: "check" },
      { type: "command", command: "keel hook claude-code", async: false, statusMessage: "Keel" },
    ];
    const rich = createHookWorld({
      claudeUser: {
        permissions: { deny: ["Bash(rm:*)"] },
        hooks: { PreToolUse: [{ matcher: "Bash", hooks }] },
      },
    });
    try {
      const event = {
        ...recordedEvent(recordedClaudeCodeEvents(rich), "PreToolUse", "Bash"),
        tool_input: { command: "rm -rf build" },
      };
      const reply = await handleHookEvent("claude-code", JSON.stringify(event), rich.options());
      expect({ answer: answerOf(reply.stdout).answer, note: reply.note }).toEqual({
        answer: "deny",
        note: undefined,
      });
    } finally {
      rich.cleanup();
    }
  });
});

describe("keel hook claude-code: an event Keel cannot read is refused, with a one-line note", () => {
  it("leaves an event it does not answer (not a tool call) to Claude Code", async () => {
    const event = JSON.stringify({ ...pre("Bash"), hook_event_name: "PostToolUse" });
    const reply = await handleHookEvent("claude-code", event, world.options());
    expect(reply).toMatchObject({ stdout: "", exitCode: 0 });
    expect(reply.note).toMatch(/unknown event PostToolUse.*no opinion$/);
  });

  const BAD: Array<[string, () => string, RegExp]> = [
    ["not JSON", () => "this is not json", /not JSON/],
    ["a JSON array", () => "[1, 2]", /not a JSON object/],
    ["nothing", () => "", /no event on stdin/],
    ["no tool_name", () => JSON.stringify({ ...pre("Bash"), tool_name: undefined }), /no tool_name/],
    [
      "tool_input not an object",
      () => JSON.stringify({ ...pre("Bash"), tool_input: "ls" }),
      /tool_input is not a JSON object/,
    ],
    [
      "a relative cwd",
      () => JSON.stringify({ ...pre("Bash"), cwd: "project" }),
      /cwd is not an absolute path/,
    ],
    [
      "no hook_event_name",
      () => JSON.stringify({ ...pre("Bash"), hook_event_name: 7 }),
      /no hook_event_name/,
    ],
  ];
  it.each(BAD)("%s", async (_name, input, note) => {
    const reply = await handleHookEvent("claude-code", input(), world.options());
    // Exit code 2 is Claude Code's "block this call", with stderr (the note) as the reason.
    expect(reply.stdout).toBe("");
    expect(reply.exitCode).toBe(2);
    expect(reply.note).toMatch(note);
    expect(reply.note).toMatch(/so it refuses the call/);
    expect(reply.note).not.toMatch(/\n/);
  });

  it("decides an unknown permission mode as default, and says so", async () => {
    const event = { ...pre("Bash", { command: "touch notes.txt" }), permission_mode: "superAutoMode" };
    const reply = await handleHookEvent("claude-code", JSON.stringify(event), world.options());
    expect(reply.stdout).toBe("");
    expect(reply.note).toMatch(/unknown permission_mode "superAutoMode", decided as default/);
    const readOnly = { ...event, tool_input: { command: "ls" } };
    expect(
      answerOf((await handleHookEvent("claude-code", JSON.stringify(readOnly), world.options())).stdout)
        .answer,
    ).toBe("allow");
  });

  it("refuses every call while a settings file is broken, naming file:line:col to the agent", async () => {
    const broken = createHookWorld({ keelUser: '{ "permissions": { "deny": ["Bash(rm:*)"], } }' });
    try {
      for (const tool of ["Bash", "Read"]) {
        const event = recordedEvent(recordedClaudeCodeEvents(broken), "PreToolUse", tool);
        const reply = await handleHookEvent("claude-code", JSON.stringify(event), broken.options());
        const { answer, reason } = answerOf(reply.stdout);
        expect(answer).toBe("deny");
        expect(reason).toMatch(
          /Keel's settings at .*\.keel\/settings\.json:1:\d+ cannot be read: .*refuses every call/,
        );
        expect(reply.note).toMatch(/cannot be read/);
      }
    } finally {
      broken.cleanup();
    }
  });
});
