// What the Bash tool costs over spawning bash yourself, in this process.
// `echo hi` through BashTool.call() (process group, output file, cwd report, summary) vs
// `bash -c 'echo hi'` spawned directly with piped stdout (the reference); and the same sandboxed:
// the tool with the OS sandbox on vs the runtime's own bubblewrap command line for `echo hi`
// (wrapped once, outside the timed runs) spawned directly. Reference and subject alternate run by
// run, and the order within each pair alternates too, so load on the machine falls on both alike.
import { spawn } from "node:child_process";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initBashParser } from "../src/shell/analyze/grammar/parse.ts";
import { bareSandboxCommand, sandboxUnavailableReason, stopSandbox } from "../src/shell/sandbox/sandbox.ts";
import { updatePermissionContext } from "../src/tool/context.ts";
import { createToolUseContext } from "../src/tool/createContext.ts";
import { BashTool } from "../src/tools/bash/BashTool.ts";
import { type MeasureRow, summarize } from "./stats.ts";

export type { MeasureRow } from "./stats.ts";

const WARMUP = 5;

export interface Timing {
  median: number;
  p99: number;
}

export interface BashExecTimings {
  iterations: number;
  direct: Timing;
  tool: Timing;
  /** Absent with the reason when the sandbox cannot run here. */
  sandboxed?: { direct: Timing; tool: Timing };
  sandboxSkipped?: string;
}

function spawnAndCollect(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] ?? "bash", argv.slice(1), { stdio: ["ignore", "pipe", "pipe"], env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("error", reject);
    child.once("close", () => resolve(output));
  });
}

/** Times `reference` and `subject` alternately; returns their samples (warm-up runs dropped). */
async function interleaved(
  iterations: number,
  reference: () => Promise<unknown>,
  subject: () => Promise<unknown>,
  afterReference: () => void = () => {},
): Promise<{ reference: Timing; subject: Timing }> {
  const samples = { reference: [] as number[], subject: [] as number[] };
  for (let run = -WARMUP; run < iterations; run++) {
    const order = run % 2 === 0 ? (["reference", "subject"] as const) : (["subject", "reference"] as const);
    for (const which of order) {
      const started = performance.now();
      await (which === "reference" ? reference() : subject());
      if (run >= 0) samples[which].push(performance.now() - started);
      if (which === "reference") afterReference();
    }
  }
  const timing = (values: number[]) => {
    const { median, p99 } = summarize(values);
    return { median, p99 };
  };
  return { reference: timing(samples.reference), subject: timing(samples.subject) };
}

async function callBash(context: ReturnType<typeof createToolUseContext>): Promise<void> {
  const result = await BashTool.call(
    { command: "echo hi" },
    context,
    async () => ({ behavior: "allow" }),
    undefined,
    () => {},
  );
  if (result.data.output !== "hi\n")
    throw new Error(`unexpected output ${JSON.stringify(result.data.output)}`);
}

/** Medians and p99s of both comparisons. */
export async function bashExecTimings(
  iterations = Number(process.env.BENCH_ITERATIONS ?? 60),
): Promise<BashExecTimings> {
  await initBashParser();
  const root = await realpath(await mkdtemp(join(tmpdir(), "keel-bench-bash-")));
  try {
    const context = createToolUseContext({
      tools: [BashTool],
      cwd: root,
      toolResultsDir: join(root, ".results"),
    });
    const plain = await interleaved(
      iterations,
      () => spawnAndCollect(["bash", "-c", "echo hi"]),
      () => callBash(context),
    );
    const timings: BashExecTimings = { iterations, direct: plain.reference, tool: plain.subject };

    const unavailable = sandboxUnavailableReason();
    if (unavailable) return { ...timings, sandboxSkipped: unavailable };
    const sandboxedPermissions = updatePermissionContext(context.getAppState().toolPermissionContext, {
      sandbox: { enabled: true, autoAllowBashIfSandboxed: true },
    });
    const sandboxedContext = createToolUseContext({
      tools: [BashTool],
      permissionContext: sandboxedPermissions,
      toolResultsDir: join(root, ".results"),
    });
    try {
      // The runtime starts (proxies) once, outside the timed runs, as a session would.
      const bare = await bareSandboxCommand(sandboxedPermissions, "echo hi", root);
      try {
        const sandboxed = await interleaved(
          iterations,
          async () => {
            const output = await spawnAndCollect(bare.argv, bare.env);
            if (output !== "hi\n") throw new Error(`sandboxed reference printed ${JSON.stringify(output)}`);
          },
          () => callBash(sandboxedContext),
          // Untimed, as the runtime's own cleanup after each command: the mount points the run left.
          bare.afterRun,
        );
        return { ...timings, sandboxed: { direct: sandboxed.reference, tool: sandboxed.subject } };
      } finally {
        bare.release();
      }
    } finally {
      await stopSandbox();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The rows for the startup bench: Bash call vs spawn (target 1.1x), sandboxed vs bare bubblewrap (1.3x). */
export async function measureBashExec(): Promise<MeasureRow[]> {
  const timings = await bashExecTimings();
  const rows: MeasureRow[] = [
    {
      name: "Bash: BashTool.call echo hi vs spawn bash -c",
      medianMs: timings.tool.median,
      referenceMs: timings.direct.median,
      target: 1.1,
    },
  ];
  if (timings.sandboxed)
    rows.push({
      name: "Bash sandboxed: BashTool.call echo hi vs bare bwrap command line",
      medianMs: timings.sandboxed.tool.median,
      referenceMs: timings.sandboxed.direct.median,
      target: 1.3,
    });
  return rows;
}
