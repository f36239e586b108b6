// The pipeline's own cost, and what batching buys.
// 1. A no-op tool with a dozen permission rules loaded: median µs per call through runToolUse, and the
//    ratio to calling tool.call() directly (the reference). Target: under 50 µs per call.
// 2. 10 concurrency-safe calls that each wait 50 ms: wall time batched vs forced serial. Target: >= 8x.
import * as z from "zod";
import { runToolCalls } from "../src/pipeline/orchestrate.ts";
import { runToolUse } from "../src/pipeline/runToolUse.ts";
import { createToolUseContext } from "../src/tool/createContext.ts";
import type { ToolUseBlock } from "../src/tool/messages.ts";
import { buildTool } from "../src/tool/Tool.ts";
import { printTable, ratio, summarize } from "./stats.ts";

const noop = buildTool<{ n: number }, string>({
  name: "Noop",
  inputSchema: z.object({ n: z.number() }),
  maxResultSizeChars: 1000,
  description: () => "noop",
  prompt: () => "does nothing",
  isReadOnly: true,
  isConcurrencySafe: true,
  call: async () => ({ data: "ok" }),
});

const rules = {
  allow: ["Noop", "Read", "Glob", "Grep", "Bash(npm test:*)", "Bash(git status)"],
  deny: ["Bash(rm -rf:*)", "Read(./.env)", "WebFetch", "mcp__evil"],
  ask: ["Bash(git push:*)", "Write(./secrets/**)"],
};
const context = createToolUseContext({ tools: [noop], cwd: process.cwd(), ...rules });

async function timePerCall(run: (i: number) => Promise<void>, iterations: number): Promise<number[]> {
  for (let i = 0; i < 2000; i++) await run(i);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    await run(i);
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return samples;
}

const direct = await timePerCall(async (i) => {
  await noop.call(
    { n: i },
    context,
    async () => ({ behavior: "allow" }),
    undefined,
    () => {},
  );
}, 20_000);
const piped = await timePerCall(async (i) => {
  for await (const _event of runToolUse(
    { type: "tool_use", id: `t${i}`, name: "Noop", input: { n: i } },
    context,
  ));
}, 20_000);
const d = summarize(direct);
const p = summarize(piped);
process.stdout.write("Pipeline cost per call (no-op tool, 12 rules loaded), µs\n");
printTable([
  { path: "tool.call() directly (reference)", median: d.median, p99: d.p99 },
  { path: "runToolUse (whole pipeline)", median: p.median, p99: p.p99 },
]);
process.stdout.write(
  `pipeline overhead: ${(p.median - d.median).toFixed(1)} µs per call; ratio ${ratio(p.median, d.median)} vs direct; target < 50 µs: ${p.median < 50 ? "met" : "NOT met"}\n\n`,
);

const sleeper = buildTool<{ n: number }, string>({
  name: "Sleep",
  inputSchema: z.object({ n: z.number() }),
  maxResultSizeChars: 1000,
  description: () => "sleep",
  prompt: () => "waits 50 ms",
  isReadOnly: true,
  isConcurrencySafe: true,
  checkPermissions: async (input) => ({ behavior: "allow", updatedInput: input }),
  call: () => new Promise((resolve) => setTimeout(() => resolve({ data: "slept" }), 50)),
});
const calls: ToolUseBlock[] = Array.from({ length: 10 }, (_, i) => ({
  type: "tool_use",
  id: `s${i}`,
  name: "Sleep",
  input: { n: i },
}));
const sleepContext = createToolUseContext({ tools: [sleeper], cwd: process.cwd() });

async function wall(maxConcurrency: number): Promise<number> {
  const start = performance.now();
  for await (const _event of runToolCalls(calls, sleepContext, {}, { maxConcurrency }));
  return performance.now() - start;
}
const serialRuns: number[] = [];
const batchedRuns: number[] = [];
for (let i = 0; i < 5; i++) {
  serialRuns.push(await wall(1));
  batchedRuns.push(await wall(10));
}
const serial = summarize(serialRuns).median;
const batched = summarize(batchedRuns).median;
process.stdout.write("10 concurrency-safe calls of 50 ms each, wall ms\n");
printTable([
  { run: "forced serial (reference)", ms: serial },
  { run: "batched (max 10 at once)", ms: batched },
]);
process.stdout.write(
  `speedup: ${ratio(serial, batched)}; target >= 8x: ${serial / batched >= 8 ? "met" : "NOT met"}\n`,
);
