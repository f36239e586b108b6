// The Bash analyzer's cost per command: median and p99 over the shared bypass cases (plus our extra
// cases) and over long generated scripts, against a bare tree-sitter parse of the same input measured
// in the same run (the reference). Target: median under 1 ms per command. `node bench/bash-analyzer.bench.ts`.
import { analyzeBashCommandNow } from "../src/shell/analyze/analyze.ts";
import { resetDeepScanCache } from "../src/shell/analyze/deepCommands.ts";
import { initBashParser, withBashTree } from "../src/shell/analyze/grammar/parse.ts";
import {
  EXTRA_CASES,
  loadBashCases,
  SHARED_CASES_FILE,
} from "../src/shell/analyze/testing/bashExtraCases.ts";
import { generatedScripts } from "../src/shell/analyze/testing/generatedScripts.ts";
import { contextFor, createTestProject } from "../src/shell/analyze/testing/project.ts";
import { printTable, ratio, summarize } from "./stats.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);

export interface BenchResult {
  name: string;
  inputs: number;
  medianMs: number;
  p99Ms: number;
  referenceMedianMs: number;
}

function time(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

/** `perInput` divides each input's time (e.g. by its number of subcommands); 1 by default. */
function measure(
  name: string,
  commands: readonly string[],
  analyze: (command: string) => unknown,
  perInput: (command: string) => number = () => 1,
): BenchResult {
  const samples: number[] = [];
  const references: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const command of commands) {
      resetDeepScanCache();
      const units = perInput(command);
      references.push(time(() => withBashTree(command, (root) => root.childCount)) / units);
      samples.push(time(() => analyze(command)) / units);
    }
  }
  const analysis = summarize(samples);
  const reference = summarize(references);
  return {
    name,
    inputs: commands.length,
    medianMs: analysis.median,
    p99Ms: analysis.p99,
    referenceMedianMs: reference.median,
  };
}

export async function run(): Promise<BenchResult[]> {
  await initBashParser();
  const project = createTestProject();
  try {
    const shared = loadBashCases(SHARED_CASES_FILE).map((testCase) =>
      testCase.command.split("/project").join(project.root),
    );
    const extra = EXTRA_CASES.map((testCase) => testCase.command.split("/project").join(project.root));
    const scripts = generatedScripts();
    const context = contextFor(project.root);
    const analyze = (command: string) =>
      analyzeBashCommandNow(command, { cwd: project.root, permissionContext: context });
    for (let i = 0; i < 3; i++) for (const command of [...shared, ...extra]) analyze(command);
    const subcommands = (script: string) => script.split(/ && |; | \|\| | \| /).length;
    const results = [
      ...(shared.length > 0 ? [measure("shared bypass cases", shared, analyze)] : []),
      measure("extra adversarial cases", extra, analyze),
      measure("generated scripts, per subcommand", scripts, analyze, subcommands),
      measure("generated scripts (50-240 commands), whole", scripts, analyze),
    ];
    printTable(
      results.map((result) => ({
        input: result.name,
        n: result.inputs,
        "analyzer median ms": result.medianMs,
        "analyzer p99 ms": result.p99Ms,
        "bare parse median ms": result.referenceMedianMs,
        "vs bare parse": ratio(result.medianMs, result.referenceMedianMs),
        "median < 1 ms": result.medianMs < 1 ? "yes" : "no",
      })),
    );
    process.stdout.write(
      "A whole script is many commands: its line is the latency of one permission check, bounded below by the parse itself.\n",
    );
    return results;
  } finally {
    project.cleanup();
  }
}

if (import.meta.main) await run();
