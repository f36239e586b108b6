// Hook stdin field for field against Claude Code's hooks reference (code.claude.com/docs/en/hooks,
// "Common input fields" and each event's "<Event> input" section). A real agent session, built the way
// `keel run` and the terminal UI build it, fires every event at real hook commands that save their stdin.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentSession, createAgentSession } from "../agent/createAgent.ts";
import { startAnthropicServer } from "../agent/testing/anthropicServer.ts";
import { collectRun, TEST_KEY } from "../agent/testing/harness.ts";
import { text, toolUse } from "../agent/testing/script.ts";
import type { ScriptedServer } from "../agent/testing/server.ts";
import { loadSettings } from "../settings/load.ts";
import { tempFolderForTest } from "../tool/testing/tempFolder.ts";
import { builtinTools } from "../tools/builtinTools.ts";
import { HOOK_EVENTS, type HookEvent } from "./config.ts";
import { HookRunner } from "./runner.ts";

type FieldType = "string" | "boolean" | "object" | "array" | "any";

/** Every documented input field and its type. */
const FIELD_TYPES: Record<string, FieldType> = {
  session_id: "string",
  transcript_path: "string",
  cwd: "string",
  permission_mode: "string",
  hook_event_name: "string",
  agent_id: "string",
  agent_type: "string",
  source: "string",
  model: "string",
  prompt: "string",
  tool_name: "string",
  tool_input: "object",
  tool_use_id: "string",
  tool_response: "any",
  permission_suggestions: "array",
  error: "string",
  is_interrupt: "boolean",
  message: "string",
  title: "string",
  notification_type: "string",
  stop_hook_active: "boolean",
  agent_transcript_path: "string",
  last_assistant_message: "string",
  trigger: "string",
  custom_instructions: "string",
  reason: "string",
};

const COMMON = ["session_id", "transcript_path", "cwd", "hook_event_name"];
const WITH_MODE = [...COMMON, "permission_mode"];
/** Present when a hook fires inside a sub-agent ("When running with --agent or inside a subagent"). */
const IN_SUBAGENT = ["agent_id", "agent_type"];

/** The reference, event by event: the fields always sent, and those that may be absent. */
const DOCUMENTED: Record<HookEvent, { required: string[]; optional: string[] }> = {
  SessionStart: { required: [...COMMON, "source", "model"], optional: ["agent_type"] },
  UserPromptSubmit: { required: [...WITH_MODE, "prompt"], optional: IN_SUBAGENT },
  PreToolUse: { required: [...WITH_MODE, "tool_name", "tool_input", "tool_use_id"], optional: IN_SUBAGENT },
  PermissionRequest: {
    required: [...WITH_MODE, "tool_name", "tool_input"],
    optional: ["permission_suggestions", ...IN_SUBAGENT],
  },
  PostToolUse: {
    required: [...WITH_MODE, "tool_name", "tool_input", "tool_response", "tool_use_id"],
    optional: IN_SUBAGENT,
  },
  PostToolUseFailure: {
    required: [...WITH_MODE, "tool_name", "tool_input", "tool_use_id", "error"],
    optional: ["is_interrupt", ...IN_SUBAGENT],
  },
  Notification: { required: [...COMMON, "message", "notification_type"], optional: ["title"] },
  SubagentStart: { required: [...COMMON, "agent_id", "agent_type"], optional: [] },
  SubagentStop: {
    required: [
      ...WITH_MODE,
      "stop_hook_active",
      "agent_id",
      "agent_type",
      "agent_transcript_path",
      "last_assistant_message",
    ],
    optional: [],
  },
  Stop: { required: [...WITH_MODE, "stop_hook_active", "last_assistant_message"], optional: IN_SUBAGENT },
  PreCompact: { required: [...COMMON, "trigger", "custom_instructions"], optional: [] },
  SessionEnd: { required: [...COMMON, "reason"], optional: [] },
};

let root: string;
let project: string;
let captures: string;
let server: ScriptedServer;
let session: AgentSession;
const seen = new Map<HookEvent, Record<string, unknown>[]>();

function recordingHooks(): Record<string, unknown> {
  const command = `f=$(mktemp "${captures}/XXXXXXXX"); cat > "$f"`;
  return Object.fromEntries(
    HOOK_EVENTS.map((event) => [event, [{ matcher: "", hooks: [{ type: "command", command }] }]]),
  );
}

beforeAll(async () => {
  root = tempFolderForTest("keel-hook-inputs-");
  project = join(root, "project");
  captures = join(root, "captures");
  const home = join(root, "home");
  for (const dir of [project, captures, home, join(project, ".claude")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ hooks: recordingHooks() }));
  const env = { ...process.env, HOME: home, KEEL_HOME: home, KEEL_MANAGED_SETTINGS: join(root, "none.json") };
  const settings = loadSettings({ cwd: project, cli: { trust: true }, env });
  // The main loop's requests and the sub-agent's come in this order; anything after is a summary.
  const turns = [
    {
      blocks: [
        toolUse("Bash", { command: "echo hi", description: "Say hi" }),
        toolUse("Read", { file_path: join(project, "missing.txt") }),
        toolUse("Write", { file_path: join(project, "new.txt"), content: "x" }),
      ],
    },
    { blocks: [toolUse("Agent", { description: "Look around", prompt: "Say done." })] },
    { blocks: [toolUse("Bash", { command: "echo from-sub-agent" })] },
    { blocks: [text("sub-agent done")] },
    { blocks: [text("All done.")] },
  ];
  server = await startAnthropicServer({
    apiKey: TEST_KEY,
    script: (_request, index) => turns[index] ?? { blocks: [text("SUMMARY: nothing much.")] },
  });
  const runner = new HookRunner({ hooks: settings.hooks, projectDir: project, env });
  session = await createAgentSession({
    settings,
    tools: builtinTools(),
    services: { hooks: runner },
    flags: { provider: "anthropic", baseUrl: server.url, model: "claude-test" },
    interactive: false,
    env: { ...env, ANTHROPIC_API_KEY: TEST_KEY },
  });
  const outcome = await collectRun(session.agent.submit("Please do the things."));
  expect(outcome.outcome.reason).toBe("completed");
  await collectRun(session.agent.compact({ trigger: "manual", instructions: "keep it short" }));
  // As the terminal UI sends it when a dialog comes on screen (src/agent/ui/attentionNotifier.ts).
  await session.hooks.notification(
    {
      type: "permission_prompt",
      message: "Keel needs your permission to use Bash",
      title: "Permission needed",
    },
    new AbortController().signal,
  );
  await session.agent.clearConversation();
  await session.hooks.sessionEnd("other", new AbortController().signal);
  for (const file of readdirSync(captures)) {
    const input = JSON.parse(readFileSync(join(captures, file), "utf8")) as Record<string, unknown>;
    const event = input.hook_event_name as HookEvent;
    seen.set(event, [...(seen.get(event) ?? []), input]);
  }
}, 60_000);

afterAll(async () => {
  await server?.close();
  session?.close?.();
});

describe("hook stdin, field for field, as Claude Code's hooks reference documents it", () => {
  it.each(HOOK_EVENTS)("%s", (event) => {
    const inputs = seen.get(event) ?? [];
    expect(inputs.length, `${event} fired`).toBeGreaterThan(0);
    const { required, optional } = DOCUMENTED[event];
    for (const input of inputs) {
      const keys = Object.keys(input);
      expect(keys.filter((key) => !required.includes(key) && !optional.includes(key))).toEqual([]);
      expect(required.filter((key) => !keys.includes(key))).toEqual([]);
      for (const key of keys) {
        const type = FIELD_TYPES[key];
        const value = input[key];
        if (type === "array") expect(Array.isArray(value), key).toBe(true);
        else if (type === "object") expect(value !== null && typeof value === "object", key).toBe(true);
        else if (type !== "any") expect(typeof value, key).toBe(type);
      }
      expect(input.hook_event_name).toBe(event);
      expect(input.session_id).toBe(session.agent.sessionId);
      expect(input.transcript_path).toBe(session.transcript.path);
    }
  });

  it("transcript_path is the session's transcript on disk, and a sub-agent's own transcript is beside it", () => {
    expect(readFileSync(session.transcript.path, "utf8")).toContain("Please do the things.");
    const stop = seen.get("SubagentStop")![0]!;
    expect(stop.last_assistant_message).toBe("sub-agent done");
    const agentTranscript = stop.agent_transcript_path as string;
    expect(agentTranscript).toBe(
      join(session.transcript.path.replace(/\.jsonl$/, ""), "subagents", `agent-${stop.agent_id}.jsonl`),
    );
    expect(existsSync(agentTranscript) && readFileSync(agentTranscript, "utf8")).toContain("sub-agent done");
    expect(seen.get("Stop")![0]!.last_assistant_message).toBe("All done.");
    const starts = seen.get("SessionStart")!;
    expect(starts.map((input) => input.source).sort()).toEqual(["clear", "compact", "startup"]);
    for (const start of starts) expect(start.model).toBe("claude-test");
    const reasons = seen.get("SessionEnd")!.map((input) => input.reason);
    expect(reasons.sort()).toEqual(["clear", "other"]);
  });

  it("a sub-agent's tool events carry agent_id and agent_type; the main loop's do not", () => {
    const start = seen.get("SubagentStart")![0]!;
    expect(start.agent_type).toBe("general-purpose");
    const bash = seen.get("PreToolUse")!.filter((input) => input.tool_name === "Bash");
    const inSubagent = bash.find((input) => JSON.stringify(input.tool_input).includes("from-sub-agent"));
    expect(inSubagent).toMatchObject({ agent_id: start.agent_id, agent_type: "general-purpose" });
    const inMain = bash.find((input) => JSON.stringify(input.tool_input).includes("echo hi"));
    expect(inMain).toBeDefined();
    expect(inMain!.agent_id).toBeUndefined();
    expect(seen.get("PermissionRequest")![0]).toMatchObject({ tool_name: "Write" });
    expect(seen.get("PostToolUseFailure")![0]).toMatchObject({ tool_name: "Read", is_interrupt: false });
  });
});
