// What the Bash tool costs over spawning bash yourself (measurement in bashExecMeasure.ts).
// `echo hi` through BashTool.call() as a person-approved call vs `bash -c 'echo hi'` spawned directly
// (target <= 1.1x); confined (a call no person approved) vs its own bubblewrap command line spawned
// directly (target <= 1.3x), with bubblewrap without the mounts beside it; and sandboxed: the tool with
// the OS sandbox on vs the runtime's own bubblewrap command line for `echo hi` (target <= 1.3x).
import { bashExecTimings } from "./bashExecMeasure.ts";
import { printTable, ratio } from "./stats.ts";

const timings = await bashExecTimings();
const rows: Array<Record<string, string | number>> = [
  {
    run: "bash -c 'echo hi' spawned directly (reference)",
    median_ms: timings.direct.median,
    p99_ms: timings.direct.p99,
    ratio: "1.00x",
  },
  {
    run: "BashTool.call({command: 'echo hi'}), approved by a person (target <= 1.1x)",
    median_ms: timings.tool.median,
    p99_ms: timings.tool.p99,
    ratio: ratio(timings.tool.median, timings.direct.median),
  },
];
const notes: string[] = [];
if (timings.confined) {
  const { direct, tool, bare, mounts } = timings.confined;
  rows.push(
    {
      run: "bwrap without mounts spawned directly",
      median_ms: bare.median,
      p99_ms: bare.p99,
      ratio: ratio(bare.median, timings.direct.median),
    },
    {
      run: `bwrap with the confinement's ${mounts} mounts spawned directly (confined reference)`,
      median_ms: direct.median,
      p99_ms: direct.p99,
      ratio: ratio(direct.median, timings.direct.median),
    },
    {
      run: "BashTool.call confined (no person approved it)",
      median_ms: tool.median,
      p99_ms: tool.p99,
      ratio: ratio(tool.median, timings.direct.median),
    },
  );
  notes.push(
    `confined: tool vs its own bwrap command line ${ratio(tool.median, direct.median)} (target <= 1.3x); vs the person-approved call ${ratio(tool.median, timings.tool.median)}`,
  );
} else notes.push(`confined runs skipped: ${timings.confinementSkipped}`);
if (timings.sandboxed) {
  const { direct, tool } = timings.sandboxed;
  rows.push(
    {
      run: "sandbox's bwrap command line spawned directly (sandboxed reference)",
      median_ms: direct.median,
      p99_ms: direct.p99,
      ratio: ratio(direct.median, timings.direct.median),
    },
    {
      run: "BashTool.call with the sandbox on",
      median_ms: tool.median,
      p99_ms: tool.p99,
      ratio: ratio(tool.median, timings.direct.median),
    },
  );
  notes.push(
    `sandboxed: tool vs its own bwrap command line ${ratio(tool.median, direct.median)} (target <= 1.3x)`,
  );
} else notes.push(`sandboxed runs skipped: ${timings.sandboxSkipped}`);

process.stdout.write(`echo hi, ${timings.iterations} runs each, interleaved, ms\n`);
printTable(rows);
for (const note of notes) process.stdout.write(`${note}\n`);
