// What the Bash tool costs over spawning bash yourself, in this process.
// `echo hi` through BashTool.call() (process group, output file, cwd report, summary) as a call a
// person approved (unconfined) vs `bash -c 'echo hi'` spawned directly with piped stdout (the
// reference); confined (a call no person approved: bubblewrap with the protected paths' mounts) vs
// the same bubblewrap command line spawned directly, and vs bubblewrap without those mounts; and
// sandboxed: the tool with the OS sandbox on vs the runtime's own bubblewrap command line for
// `echo hi` (wrapped once, outside the timed runs) spawned directly. The project is a git repository
// and the home folder a temporary one laid out like a developer's. Reference and subject alternate
// run by run, and the order within each pair alternates too, so load on the machine falls on both alike.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import type { DecisionReason } from "../src/permissions/types.ts";
import { initBashParser } from "../src/shell/analyze/grammar/parse.ts";
import { bwrapArgs, confinementAvailability } from "../src/shell/sandbox/confinementAvailability.ts";
import { confinementMounts } from "../src/shell/sandbox/confinementLauncher.ts";
import { confinementLayout } from "../src/shell/sandbox/confinementLayout.ts";
import { holdStandIns } from "../src/shell/sandbox/placeholders.ts";
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
  /** Absent with the reason when bubblewrap cannot run here. */
  confined?: {
    /** bubblewrap with the same mounts, spawned directly. */
    direct: Timing;
    tool: Timing;
    /** bubblewrap without the mounts (the host as it is), spawned directly. */
    bare: Timing;
    mounts: number;
  };
  confinementSkipped?: string;
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

/** What the pipeline records for a call a person approved: Bash runs it unconfined. */
const PERSON: DecisionReason = { type: "user", prompter: "bench", choice: "once" };
let calls = 0;

/** `echo hi` through the tool, approved by a person (unconfined) or not (confined: no decision recorded). */
async function callBash(context: ReturnType<typeof createToolUseContext>, byPerson = false): Promise<void> {
  const toolUse = {
    type: "tool_use" as const,
    id: `bench-${++calls}`,
    name: "Bash",
    input: { command: "echo hi" },
  };
  if (byPerson)
    context.toolDecisions?.set(toolUse.id, { behavior: "allow", decidedBy: "user", reason: PERSON });
  const result = await BashTool.call(
    { command: "echo hi" },
    context,
    async () => ({ behavior: "allow" }),
    toolUse,
    () => {},
  );
  context.toolDecisions?.delete(toolUse.id);
  if (result.data.output !== "hi\n")
    throw new Error(`unexpected output ${JSON.stringify(result.data.output)}`);
}

/** Medians and p99s of both comparisons. */
export async function bashExecTimings(
  iterations = Number(process.env.BENCH_ITERATIONS ?? 60),
): Promise<BashExecTimings> {
  await initBashParser();
  const base = await realpath(await mkdtemp(join(tmpdir(), "keel-bench-bash-")));
  const root = join(base, "project");
  const savedHome = process.env.HOME;
  try {
    layOutHome(join(base, "home"));
    process.env.HOME = join(base, "home");
    mkdirSync(root);
    execFileSync("git", ["init", "-q"], { cwd: root });
    const context = createToolUseContext({
      tools: [BashTool],
      cwd: root,
      toolResultsDir: join(base, ".results"),
    });
    const plain = await interleaved(
      iterations,
      () => spawnAndCollect(["bash", "-c", "echo hi"]),
      () => callBash(context, true),
    );
    let timings: BashExecTimings = { iterations, direct: plain.reference, tool: plain.subject };
    timings = { ...timings, ...(await confinedTimings(iterations, context, root)) };

    const unavailable = sandboxUnavailableReason();
    if (unavailable) return { ...timings, sandboxSkipped: unavailable };
    const sandboxedPermissions = updatePermissionContext(context.getAppState().toolPermissionContext, {
      sandbox: { enabled: true, autoAllowBashIfSandboxed: true },
    });
    const sandboxedContext = createToolUseContext({
      tools: [BashTool],
      permissionContext: sandboxedPermissions,
      toolResultsDir: join(base, ".results"),
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
          () => callBash(sandboxedContext, true),
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
    process.env.HOME = savedHome;
    await rm(base, { recursive: true, force: true });
  }
}

/** A home folder as a developer's looks to the confinement: rc files, git config, ssh, tool folders. */
function layOutHome(home: string): void {
  for (const folder of [
    ".ssh",
    ".config/gh",
    ".local/bin",
    ".cargo/registry",
    ".npm",
    ".cache",
    ".claude",
    ".keel",
  ])
    mkdirSync(join(home, folder), { recursive: true });
  for (const file of [".bashrc", ".profile", ".gitconfig", ".npmrc", ".cargo/config.toml"])
    writeFileSync(join(home, file), "");
}

/** The confined call vs its own bubblewrap command line, and bubblewrap without the mounts. */
async function confinedTimings(
  iterations: number,
  context: ReturnType<typeof createToolUseContext>,
  root: string,
): Promise<Pick<BashExecTimings, "confined" | "confinementSkipped">> {
  const availability = confinementAvailability(process.env);
  if (!availability.available) return { confinementSkipped: availability.reason };
  const permissionContext = context.getAppState().toolPermissionContext;
  // The same mounts as the tool's, stand-ins held for the whole measurement.
  const layout = confinementLayout(permissionContext, { cwd: root, home: homedir(), profile: "strict" });
  const held = holdStandIns(layout.absent);
  try {
    const mounts = confinementMounts(layout, held);
    const withMounts = [availability.bwrap, ...bwrapArgs(mounts), "--", "bash", "-c", "echo hi"];
    const bare = [availability.bwrap, ...bwrapArgs([]), "--", "bash", "-c", "echo hi"];
    const expectHi = async (argv: string[]) => {
      const output = await spawnAndCollect(argv);
      if (output !== "hi\n") throw new Error(`bubblewrap printed ${JSON.stringify(output)}`);
    };
    const confined = await interleaved(
      iterations,
      () => expectHi(withMounts),
      () => callBash(context),
    );
    const unmounted = await interleaved(
      iterations,
      () => expectHi(bare),
      () => expectHi(withMounts),
    );
    return {
      confined: {
        direct: confined.reference,
        tool: confined.subject,
        bare: unmounted.reference,
        mounts: mounts.filter((word) => word.startsWith("--") && word !== "--remount-ro").length,
      },
    };
  } finally {
    held.release();
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
  if (timings.confined)
    rows.push({
      name: "Bash confined: BashTool.call echo hi vs its bwrap command line",
      medianMs: timings.confined.tool.median,
      referenceMs: timings.confined.direct.median,
      target: 1.3,
    });
  if (timings.sandboxed)
    rows.push({
      name: "Bash sandboxed: BashTool.call echo hi vs bare bwrap command line",
      medianMs: timings.sandboxed.tool.median,
      referenceMs: timings.sandboxed.direct.median,
      target: 1.3,
    });
  return rows;
}
