// `keel -p --output-format json|stream-json` against Claude Code 2.1.332's own output for the same
// scripted runs: every key and type of every record, record counts per kind, and the result's counts
// (num_turns, subtype, stop_reason, permission_denials). Claude Code's output is the fixture recorded by
// scripts/record-claude-code-output.ts; when that Claude Code is in the local cache, it is also run live.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cachedClaudeCode } from "../../scripts/claude-code/harness.ts";
import { claudeCodePrintRun, type RecordedRun } from "../../scripts/claude-code/printRuns.ts";
import { keelWorld, runKeel } from "../cli/testing/keelProcess.ts";
import { startAnthropicServer } from "./testing/anthropicServer.ts";
import { compareOutputs, kindOf, type ShapeRules } from "./testing/outputShapes.ts";
import {
  mainConversationScript,
  outputRecords,
  PRINT_SCENARIOS,
  type PrintScenario,
  withPlaceholders,
} from "./testing/printScenarios.ts";

const FIXTURE = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "claude-code-2.1.332-print.json"), "utf8"),
) as { claudeCodeVersion: string; scenarios: Record<string, RecordedRun> };

const CLAUDE_CODE_ONLY = "Claude Code's own product feature; Keel has none";

/** What Keel does differently, and why (README, "Output formats"). */
const PRINT_SHAPE_RULES: ShapeRules = {
  notProduced: {
    "system/init.terminal_slash_commands": "commands only Claude Code's terminal offers",
    "system/init.claude_code_version": "Keel says keel_version",
    "system/init.capabilities": "Claude Code's SDK control protocol, which Keel does not speak",
    "system/init.analytics_disabled": CLAUDE_CODE_ONLY,
    "system/init.product_feedback_disabled": CLAUDE_CODE_ONLY,
    "system/init.served_by_anthropic": CLAUDE_CODE_ONLY,
    "system/init.memory_paths": "Claude Code's auto-memory folder",
    "system/init.messaging_socket_path": CLAUDE_CODE_ONLY,
    "system/init.fast_mode_state": "Anthropic's fast mode",
    "system/init.fast_mode_disabled_reason": "Anthropic's fast mode",
    "system/init.per_turn_effort_active": CLAUDE_CODE_ONLY,
    "system/init.ultrathink_available": CLAUDE_CODE_ONLY,
    "system/init.ultrathink_typed_raises": CLAUDE_CODE_ONLY,
    "system/init.view_mode": CLAUDE_CODE_ONLY,
    "assistant.message.context_management": "Anthropic's context-management beta, which Keel does not use",
    "result.fast_mode_state": "Anthropic's fast mode",
    "result.fast_mode_disabled_reason": "Anthropic's fast mode",
    "result.subagent_stats": "not counted by Keel",
    "result.safety_stops": CLAUDE_CODE_ONLY,
    "result.ttft_ms": "latency details Keel does not measure",
    "result.ttft_stream_ms": "latency details Keel does not measure",
    "result.time_to_request_ms": "latency details Keel does not measure",
    "result.first_content_frame_ms": "latency details Keel does not measure",
    "result.model_usage_since_last_result": "modelUsage is already per prompt in Keel",
    "result.usage.output_tokens_details": "not reported by every provider Keel speaks to",
    "result.usage.server_tool_use": "Keel uses no server-side tools",
    "result.usage.service_tier": "Anthropic-specific",
    "result.usage.cache_creation": "Anthropic-specific",
    "result.usage.inference_geo": "Anthropic-specific",
    "result.usage.iterations": "Anthropic-specific",
    "result.usage.speed": "Anthropic's fast mode",
    "result.usage.fallback_credit": "Anthropic-specific",
    "result.modelUsage.*.webSearchRequests": "Keel uses no server-side tools",
    "result.modelUsage.*.maxOutputTokens": "not known for every model Keel speaks to",
    "result.modelUsage.*.thinkingTokens": "not reported by every provider Keel speaks to",
    "result.modelUsage.*.cacheCreationEphemeral5mInputTokens": "Anthropic-specific",
    "result.modelUsage.*.cacheCreationEphemeral1hInputTokens": "Anthropic-specific",
    "result.modelUsage.*.canonicalModel": CLAUDE_CODE_ONLY,
    "result.modelUsage.*.provider": "Keel names the provider in the init line",
    "result.modelUsage.*.costBasis": CLAUDE_CODE_ONLY,
  },
  extras: {
    "system/init.provider": "which API Keel speaks (anthropic, openai)",
    "system/init.keel_version": "Keel's version",
    "system/init.resumed": "present when -c / -r resumed a session",
    "result.model": "the model of the run",
    "result.model_calls": "model calls made (num_turns counts as Claude Code does)",
    "result.detail": "why the run stopped, for a person",
    "result.error": "the model API's error, when one ended the run",
  },
  opaque: {
    "user.tool_use_result": "each tool's own output, in Keel's shape for that tool",
  },
  nullInClaudeCode: {
    "assistant.message.stop_reason": "Claude Code's lines carry null; Keel gives the message's stop reason",
  },
  keelKinds: {
    "system/tool_decision":
      "Keel's decision of each call: behavior, decided_by, Claude Code's decision and source",
    "system/retry": "a retried model request",
    "system/notice": "a message for the person",
    "system/compacted": "the conversation was compacted",
  },
  sameValues: [
    "type",
    "subtype",
    "is_error",
    "num_turns",
    "stop_reason",
    "terminal_reason",
    "permission_denials",
  ],
};

async function keelPrintRun(scenario: PrintScenario): Promise<RecordedRun> {
  const world = keelWorld();
  // The files Claude Code's recording had (scripts/claude-code/harness.ts makeWorld).
  mkdirSync(join(world.project, "src"));
  mkdirSync(join(world.project, "build"));
  writeFileSync(join(world.project, "README.md"), "keel demo\nkeel hook\nclaude code\n");
  writeFileSync(join(world.project, "src", "app.ts"), "export const answer = 42;\n");
  writeFileSync(join(world.project, "build", "keep.txt"), "still here\n");
  const server = await startAnthropicServer({
    script: mainConversationScript(scenario.turns(world.project)),
  });
  try {
    const run = await runKeel(
      [
        "-p",
        scenario.prompt,
        "--provider",
        "anthropic",
        "--base-url",
        server.url,
        "--model",
        "claude-sonnet-4-5",
        ...scenario.flags,
      ],
      world,
    );
    const folders = { project: world.project, home: world.home, base: world.root };
    return { exitCode: run.code, records: outputRecords(withPlaceholders(run.stdout, folders)) };
  } finally {
    await server.close();
  }
}

function expectSameShapes(claude: RecordedRun, keel: RecordedRun): void {
  expect(keel.records.length).toBeGreaterThan(0);
  expect(compareOutputs(claude.records, keel.records, PRINT_SHAPE_RULES)).toEqual([]);
  expect(keel.exitCode).toBe(claude.exitCode);
}

describe("print mode output, shape for shape with Claude Code", () => {
  it.each(PRINT_SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
    "%s matches the recording of Claude Code",
    async (name, scenario) => {
      const recorded = FIXTURE.scenarios[name];
      if (!recorded) throw new Error(`no recording of ${name}: run scripts/record-claude-code-output.ts`);
      expectSameShapes(recorded, await keelPrintRun(scenario));
    },
  );

  it("the recording holds the counts the issue is about", () => {
    const result = (name: string) =>
      FIXTURE.scenarios[name]?.records.find((record) => record.type === "result");
    // One tool result per turn: 3; two model calls with three parallel results: 4; --max-turns N: N + 1.
    expect(result("tools-json")).toMatchObject({ num_turns: 3, result: "done", stop_reason: "end_turn" });
    expect(result("parallel-stream-json")).toMatchObject({ num_turns: 4 });
    expect(result("max-turns-json")).toMatchObject({ num_turns: 3, subtype: "error_max_turns" });
    expect(result("max-turns-json")).not.toHaveProperty("result");
    const kinds = FIXTURE.scenarios["parallel-stream-json"]?.records.map(kindOf);
    expect(kinds).toEqual([
      "system/init",
      ...["assistant", "assistant", "assistant", "assistant"],
      ...["user", "user", "user"],
      "assistant",
      "result",
    ]);
  });

  it("a difference the rules do not explain is reported", () => {
    const claude = [{ type: "result", subtype: "success", num_turns: 3, new_field: 1 }];
    const keel = [{ type: "result", subtype: "success", num_turns: 2, extra: true }];
    expect(compareOutputs(claude, keel, { ...PRINT_SHAPE_RULES, sameValues: ["num_turns"] })).toEqual([
      "result.new_field: missing in Keel (Claude Code has number)",
      "result.extra: Keel's extra key is not documented in the rules",
      "result.num_turns: Claude Code says 3, Keel 2",
    ]);
  });

  const binary = cachedClaudeCode();
  it.runIf(binary !== undefined).each(PRINT_SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
    "%s matches Claude Code run live (cached in $TMPDIR)",
    async (_name, scenario) => {
      const [claude, keel] = await Promise.all([
        claudeCodePrintRun(binary as string, scenario),
        keelPrintRun(scenario),
      ]);
      expectSameShapes(claude, keel);
    },
    120_000,
  );
});
