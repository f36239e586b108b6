// The print-mode scenarios (src/agent/testing/printScenarios.ts) played to the real Claude Code: its json
// or stream-json records with the run's folders replaced by placeholders. Used by
// scripts/record-claude-code-output.ts (which writes the fixture) and by printShapes.test.ts (live, when
// Claude Code is already in the cache).
import { rmSync } from "node:fs";
import { startAnthropicServer } from "../../src/agent/testing/anthropicServer.ts";
import {
  mainConversationScript,
  outputRecords,
  type PrintScenario,
  withPlaceholders,
} from "../../src/agent/testing/printScenarios.ts";
import { claudeEnv, makeWorld, runClaudeArgs } from "./harness.ts";

export interface RecordedRun {
  exitCode: number | null;
  records: Array<Record<string, unknown>>;
}

export async function claudeCodePrintRun(binary: string, scenario: PrintScenario): Promise<RecordedRun> {
  const world = makeWorld("keel-claude-code-print-");
  const server = await startAnthropicServer({
    script: mainConversationScript(scenario.turns(world.project)),
  });
  try {
    const run = await runClaudeArgs(binary, world, claudeEnv(world, server.url), [
      "-p",
      scenario.prompt,
      "--model",
      "claude-sonnet-4-5",
      ...scenario.flags,
    ]);
    if (run.stdout.trim() === "")
      throw new Error(
        `claude printed nothing for ${scenario.name} (exit ${run.status}): ${run.stderr.slice(0, 500)}`,
      );
    return { exitCode: run.status, records: outputRecords(withPlaceholders(run.stdout, world)) };
  } finally {
    await server.close();
    rmSync(world.base, { recursive: true, force: true });
  }
}
