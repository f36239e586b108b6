// Records Claude Code's own `-p --output-format json|stream-json` output for the print scenarios
// (src/agent/testing/printScenarios.ts) against Keel's scripted model server, as the fixture that
// src/agent/printShapes.test.ts compares Keel's output with (in CI, without network).
//
//   node scripts/record-claude-code-output.ts   (writes src/agent/fixtures/claude-code-<version>-print.json)
//
// Claude Code is installed from npm into $TMPDIR/keel-claude-code/<version> on first use (never a
// dependency of Keel); KEEL_E2E_CLAUDE_CODE_VERSION picks another version.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PRINT_SCENARIOS } from "../src/agent/testing/printScenarios.ts";
import { CLAUDE_CODE_VERSION, installClaudeCode, REPO } from "./claude-code/harness.ts";
import { claudeCodePrintRun, type RecordedRun } from "./claude-code/printRuns.ts";

const binary = installClaudeCode();
const version =
  spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout.trim().split(" ")[0] ?? CLAUDE_CODE_VERSION;
const scenarios: Record<string, RecordedRun> = {};
for (const scenario of PRINT_SCENARIOS) {
  const run = await claudeCodePrintRun(binary, scenario);
  scenarios[scenario.name] = run;
  const kinds = run.records.map((record) => record.type).join(" ");
  process.stdout.write(`${scenario.name}: exit ${run.exitCode}, ${run.records.length} records (${kinds})\n`);
}
const out = join(REPO, "src/agent/fixtures", `claude-code-${version}-print.json`);
writeFileSync(out, `${JSON.stringify({ claudeCodeVersion: version, scenarios }, null, 2)}\n`);
process.stdout.write(`-> ${out}\n`);
