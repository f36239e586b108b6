// What the Bash tool costs over spawning bash yourself.
// `echo hi` through BashTool.call() (process group, output file, cwd report, summary) vs
// `bash -c 'echo hi'` spawned directly with piped stdout (the reference); and the same sandboxed:
// the tool with the OS sandbox on vs the sandbox's own bubblewrap command line spawned directly.
import { spawn } from "node:child_process";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { initBashParser } from "../src/shell/parse.ts";
import { createSandboxLauncher, sandboxUnavailableReason, stopSandbox } from "../src/shell/sandbox.ts";
import { updatePermissionContext } from "../src/tool/context.ts";
import { createToolUseContext } from "../src/tool/createContext.ts";
import { BashTool } from "../src/tools/bash/BashTool.ts";
import { printTable, ratio, summarize } from "./stats.ts";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 60);
const WARMUP = 5;

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

async function timeMs(run: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return samples;
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

await initBashParser();
const root = await realpath(await mkdtemp(join(tmpdir(), "keel-bench-bash-")));
const context = createToolUseContext({
  tools: [BashTool],
  cwd: root,
  toolResultsDir: join(root, ".results"),
});

const direct = summarize(await timeMs(() => spawnAndCollect(["bash", "-c", "echo hi"])));
const tool = summarize(await timeMs(() => callBash(context)));
const rows: Array<Record<string, string | number>> = [
  {
    run: "bash -c 'echo hi' spawned directly (reference)",
    median_ms: direct.median,
    p99_ms: direct.p99,
    ratio: "1.00x",
  },
  {
    run: "BashTool.call({command: 'echo hi'})",
    median_ms: tool.median,
    p99_ms: tool.p99,
    ratio: ratio(tool.median, direct.median),
  },
];

const notes: string[] = [];
const unavailable = sandboxUnavailableReason();
if (unavailable) {
  notes.push(`sandboxed runs skipped: ${unavailable}`);
} else {
  const sandboxedPermissions = updatePermissionContext(context.getAppState().toolPermissionContext, {
    sandbox: { enabled: true, autoAllowBashIfSandboxed: true },
  });
  const sandboxedContext = createToolUseContext({
    tools: [BashTool],
    permissionContext: sandboxedPermissions,
    toolResultsDir: join(root, ".results"),
  });
  // Starts the runtime (proxies) once, outside the timed runs, as a session would.
  const launcher = await createSandboxLauncher(sandboxedPermissions);
  const wrapped = await launcher.prepare("echo hi", root);
  const directSandboxed = summarize(
    await timeMs(async () => {
      const output = await spawnAndCollect(wrapped.argv, wrapped.env);
      if (output !== "hi\n") throw new Error(`sandboxed reference printed ${JSON.stringify(output)}`);
    }),
  );
  launcher.release?.();
  const toolSandboxed = summarize(await timeMs(() => callBash(sandboxedContext)));
  rows.push(
    {
      run: "sandbox's bwrap command line spawned directly (sandboxed reference)",
      median_ms: directSandboxed.median,
      p99_ms: directSandboxed.p99,
      ratio: ratio(directSandboxed.median, direct.median),
    },
    {
      run: "BashTool.call with the sandbox on",
      median_ms: toolSandboxed.median,
      p99_ms: toolSandboxed.p99,
      ratio: ratio(toolSandboxed.median, direct.median),
    },
  );
  notes.push(
    `sandboxed: tool vs its own bwrap command line ${ratio(toolSandboxed.median, directSandboxed.median)} (the difference is mostly the per-call wrap, which scans for protected files)`,
  );
  await stopSandbox();
}

process.stdout.write(`echo hi, ${ITERATIONS} runs each, ms\n`);
printTable(rows);
for (const note of notes) process.stdout.write(`${note}\n`);
await rm(root, { recursive: true, force: true });
