// `keel mcp` beside the references, same machine, same run, all over stdio and driven by the official
// SDK client:
// 1. spawn to first tools/list answer (median of several starts), against
//    @modelcontextprotocol/server-filesystem. Target: Keel < 300 ms. Keel runs as users run it,
//    `bin/keel.js mcp` (the launcher, with its compile cache) over compiled and bundled JavaScript, built
//    fresh into node_modules/.cache (a copy of bin/keel.js beside it) so a stale dist/ cannot flatter or
//    hurt it; the from-source entry (Node strips the types at each start) is shown too.
// 2. Reads of a 2,000-line source-like file (~80 KB) from one caller and from 8 concurrent callers.
//    Keel: Read through the whole pipeline, with permission rules loaded and the audit log on. References:
//    - the protocol floor (floorServer.ts): the SDK's McpServer in the same Node whose one tool returns
//      Keel's answer (the same text, checked) from memory: no file, no checks, no audit;
//    - server-filesystem's read_text_file of the same file.
//    Every server runs at once; each round every server makes a block of calls with one caller and a
//    block with 8 (who goes first alternates), so background load drifting hits all alike; the medians of
//    the rounds are compared. Measured on warm servers, as a long-lived server runs: warm-up calls first
//    (taking turns too), reported apart.
// Targets: one caller, Keel >= 0.7 of the floor; 8 callers, Keel >= 0.7 of the floor's 8-caller rate and
// >= Keel's own one-caller rate, its p99 <= server-filesystem's; Keel's calls/s >= server-filesystem's.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { meets, printTable, ratio, seededRandom, summarize } from "./stats.ts";

const REPO = new URL("../", import.meta.url).pathname;
/** Calls per server and caller count, over all rounds. */
const CALLS = Number(process.env.MCP_BENCH_CALLS ?? 2_000);
const CONCURRENCY = 8;
const STARTS = Number(process.env.MCP_BENCH_STARTS ?? 9);
/** Calls per server and caller count before measuring (in blocks of 100, the servers taking turns); a multiple of 100. */
const WARMUP = Number(process.env.MCP_BENCH_WARMUP ?? 1_000);
/** The calls are made in this many rounds, each server making one block per caller count in each. */
const ROUNDS = Number(process.env.MCP_BENCH_ROUNDS ?? 10);
const LINES = 2_000;
if (WARMUP % 100 !== 0) throw new Error(`MCP_BENCH_WARMUP (${WARMUP}) must be a multiple of 100`);
if (CALLS % ROUNDS !== 0)
  throw new Error(`MCP_BENCH_CALLS (${CALLS}) must be a multiple of MCP_BENCH_ROUNDS (${ROUNDS})`);

/**
 * Compiles src/ as `npm run build` does (tsc, the prompt .md files, the CLI bundle) into a cache folder, with
 * bin/keel.js copied beside it; returns that launcher.
 */
function buildKeel(): string | undefined {
  const cache = join(REPO, "node_modules/.cache/keel-mcp-bench");
  const out = join(cache, "dist");
  const launcher = join(cache, "bin/keel.js");
  // MCP_BENCH_REUSE_BUILD=1 keeps the last build (for experiments on the built files).
  if (process.env.MCP_BENCH_REUSE_BUILD && existsSync(join(out, "cli/main.js")) && existsSync(launcher))
    return launcher;
  rmSync(cache, { recursive: true, force: true });
  spawnSync(
    join(REPO, "node_modules/.bin/tsc"),
    ["-p", "tsconfig.build.json", "--outDir", out, "--declaration", "false"],
    {
      cwd: REPO,
      stdio: "ignore",
    },
  );
  if (!existsSync(join(out, "cli/main.js"))) return undefined;
  const copy = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) copy(path);
      else if (name.endsWith(".md")) cpSync(path, join(out, relative(join(REPO, "src"), path)));
    }
  };
  copy(join(REPO, "src"));
  spawnSync(process.execPath, [join(REPO, "scripts/bundle-cli.mjs"), out], { cwd: REPO, stdio: "inherit" });
  cpSync(join(REPO, "bin"), join(cache, "bin"), { recursive: true });
  // Keel reads its version from the package.json beside dist/, as in an installed package.
  cpSync(join(REPO, "package.json"), join(cache, "package.json"));
  return launcher;
}

const builtLauncher = buildKeel();
if (!builtLauncher)
  process.stdout.write("(could not build Keel with tsc; measuring the from-source entry only)\n");

/** Lines of about 37 characters, as source code has: Read shows all 2,000, under its 25,000-token limit. */
function sourceLikeText(lines: number): string {
  const random = seededRandom(31);
  const words = ["value", "result", "options", "context", "index", "buffer", "count", "name"];
  const pick = () => words[Math.floor(random() * words.length)]!;
  const text = Array.from({ length: lines }, (_, i) => {
    const indent = "  ".repeat(Math.floor(random() * 3));
    return `${indent}const ${pick()}${i} = ${pick()}.${pick()}(${i});`;
  });
  return `${text.join("\n")}\n`;
}

const base = mkdtempSync(join(tmpdir(), "keel-mcp-bench-"));
const project = join(base, "project");
const home = join(base, "home");
mkdirSync(project);
mkdirSync(home);
const file = join(project, "source.ts");
writeFileSync(file, sourceLikeText(LINES));

const env = {
  ...(process.env as Record<string, string>),
  KEEL_HOME: home,
  KEEL_MANAGED_SETTINGS: join(base, "none.json"),
};

interface Server {
  name: string;
  command: string[];
  tool: string;
  args: Record<string, unknown>;
}

const keelArgs = (entry: string[]) => [
  ...entry,
  "--cwd",
  project,
  // A realistic policy: the pipeline checks every rule family on each call.
  ...["--allow", "Bash(npm test:*)", "--allow", "Glob", "--deny", "Read(./.env)", "--deny", "WebFetch"],
  ...["--deny", "Bash(rm -rf:*)", "--ask", "Bash(git push:*)", "--ask", "Write(./secrets/**)"],
];
const keelFromSource: Server = {
  name: "keel mcp (from .ts sources)",
  command: keelArgs([join(REPO, "src/cli/mcpEntry.ts")]),
  tool: "Read",
  args: { file_path: file },
};
const keel: Server = builtLauncher
  ? { ...keelFromSource, name: "bin/keel.js mcp", command: keelArgs([builtLauncher, "mcp"]) }
  : keelFromSource;
const reference: Server = {
  name: "server-filesystem",
  command: [join(REPO, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"), project],
  tool: "read_text_file",
  args: { path: file },
};
/** Keel's answer, written here once Keel gave it: the floor answers the same text. */
const answerFile = join(base, "keel-answer.txt");
const floor: Server = {
  name: "floor: SDK server, text in memory",
  command: [join(REPO, "bench/floorServer.ts"), answerFile],
  tool: "read_from_memory",
  args: { file_path: file },
};

async function connect(server: Server): Promise<{ client: Client; ms: number }> {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: server.command,
    env,
    stderr: "ignore",
  });
  const client = new Client({ name: "mcp-bench", version: "1" });
  await client.connect(transport);
  await client.listTools();
  return { client, ms: performance.now() - started };
}

async function answerOf(client: Client, server: Server): Promise<string> {
  const result = await client.callTool({ name: server.tool, arguments: server.args });
  const content = result.content as Array<{ type: string; text?: string }>;
  if (result.isError || content[0]?.type !== "text")
    throw new Error(`${server.name}: ${JSON.stringify(result.content).slice(0, 300)}`);
  return content[0].text ?? "";
}

async function callOnce(client: Client, server: Server): Promise<number> {
  const started = performance.now();
  const result = await client.callTool({ name: server.tool, arguments: server.args });
  const ms = performance.now() - started;
  if (result.isError) throw new Error(`${server.name}: ${JSON.stringify(result.content).slice(0, 300)}`);
  return ms;
}

/** `calls` calls from `callers` concurrent callers: how long they took, and each call's latency. */
async function block(client: Client, server: Server, callers: number, calls: number) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < calls) {
        next++;
        latencies.push(await callOnce(client, server));
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, latencies };
}

type Connected = { server: Server; client: Client };
const CALLER_COUNTS = [1, CONCURRENCY] as const;

interface Measured {
  /** calls/s of each round's block. */
  rounds: number[];
  latencies: number[];
  warmupLatencies: number[];
}

/**
 * For each server and caller count, CALLS calls in ROUNDS blocks; in each round every server makes its
 * blocks in turn (the order reverses every other round), so a change in background load hits all alike.
 */
async function measureCalls(servers: Connected[]): Promise<Measured[][]> {
  const measured = servers.map(() =>
    CALLER_COUNTS.map((): Measured => ({ rounds: [], latencies: [], warmupLatencies: [] })),
  );
  const turns = servers.flatMap((_, server) => CALLER_COUNTS.map((_, mode) => ({ server, mode })));
  // Warm-up, interleaved too: every server's JIT tiers up within the first several hundred calls.
  for (let round = 0; round < WARMUP / 100; round++) {
    for (const { server, mode } of turns) {
      const { client, server: which } = servers[server]!;
      const { latencies } = await block(client, which, CALLER_COUNTS[mode]!, 100);
      measured[server]![mode]!.warmupLatencies.push(...latencies);
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const { server, mode } of round % 2 === 0 ? turns : [...turns].reverse()) {
      const { client, server: which } = servers[server]!;
      const { seconds, latencies } = await block(client, which, CALLER_COUNTS[mode]!, CALLS / ROUNDS);
      measured[server]![mode]!.rounds.push(latencies.length / seconds);
      measured[server]![mode]!.latencies.push(...latencies);
    }
  }
  return measured;
}

// Starts alternate between the two so background load hits both alike.
const starters = keel === keelFromSource ? [keel, reference] : [keel, keelFromSource, reference];
const starts: Record<string, number[]> = Object.fromEntries(starters.map((server) => [server.name, []]));
for (let round = 0; round < STARTS; round++) {
  for (const server of starters) {
    const { client, ms } = await connect(server);
    starts[server.name]!.push(ms);
    await client.close();
  }
}

const connectedKeel: Connected = { server: keel, client: (await connect(keel)).client };
const keelAnswer = await answerOf(connectedKeel.client, keel);
writeFileSync(answerFile, keelAnswer);
const connected: Connected[] = [connectedKeel];
for (const server of [floor, reference]) connected.push({ server, client: (await connect(server)).client });
if ((await answerOf(connected[1]!.client, floor)) !== keelAnswer)
  throw new Error("the floor server does not answer Keel's text");
const measured = await measureCalls(connected);
for (const { client } of connected) await client.close();

const startK = summarize(starts[keel.name]!);
const startR = summarize(starts[reference.name]!);
process.stdout.write(`Spawn to first tools/list answer, ms (${STARTS} starts each, interleaved)\n`);
printTable(
  starters.map((server) => {
    const { median, p99 } = summarize(starts[server.name]!);
    const min = Math.min(...starts[server.name]!);
    const label = server === reference ? `${server.name} (reference)` : server.name;
    return { server: label, median, min, max: p99 };
  }),
);
process.stdout.write(
  `ratio ${ratio(startK.median, startR.median)}; target keel < 300 ms: ${startK.median < 300 ? "met" : "NOT met"}\n\n`,
);

const median = (values: readonly number[]) => summarize(values).median;
/** The median over rounds of a/b, each round's two blocks compared with each other; and its range. */
function roundRatio(a: Measured, b: Measured): { median: number; min: number; max: number } {
  const ratios = a.rounds.map((rate, round) => rate / b.rounds[round]!);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}
const shown = (r: { median: number; min: number; max: number }) =>
  `${r.median.toFixed(2)}x (rounds ${r.min.toFixed(2)}-${r.max.toFixed(2)})`;

const [K, F, R] = [0, 1, 2].map((i) => measured[i]!);
const kb = (chars: number) => `${Math.round(chars / 1024)} KB`;
process.stdout.write(
  `Read of a ${LINES}-line file (${kb(statSync(file).size)}; Keel's numbered answer ${kb(keelAnswer.length)}), ` +
    `${ROUNDS} rounds of ${CALLS / ROUNDS} calls per server and caller count, interleaved; ` +
    `calls/s is the median of the rounds, p50/p99 over all ${CALLS} calls\n`,
);
const rows: Array<Record<string, string | number>> = [];
for (const [mode, callers] of CALLER_COUNTS.entries()) {
  for (const [i, { server }] of connected.entries()) {
    const m = measured[i]![mode]!;
    const { median: p50, p99 } = summarize(m.latencies);
    const warm = summarize(m.warmupLatencies);
    rows.push({
      callers,
      server: server === keel ? server.name : `${server.name} (reference)`,
      "calls/s": median(m.rounds),
      "of floor": server === floor ? "1.00x" : shown(roundRatio(m, F![mode]!)),
      "p50 ms": p50,
      "p99 ms": p99,
      "warm-up p50/p99 ms": `${warm.median.toFixed(2)}/${warm.p99.toFixed(2)}`,
    });
  }
}
printTable(rows);

const [one, eight] = [0, 1];
const p99 = (m: Measured) => summarize(m.latencies).p99;
const targets: Array<{ row: string; value: string; verdict: string }> = [];
const judge = (
  row: string,
  r: { median: number; min: number; max: number },
  target: number,
  direction: "atLeast" | "atMost",
) => targets.push({ row, value: shown(r), verdict: meets(r.median, target, direction) });
judge("1 caller: Keel / floor calls/s", roundRatio(K![one]!, F![one]!), 0.7, "atLeast");
judge("8 callers: Keel / floor's 8-caller calls/s", roundRatio(K![eight]!, F![eight]!), 0.7, "atLeast");
judge("Keel 8 callers / Keel 1 caller calls/s", roundRatio(K![eight]!, K![one]!), 1, "atLeast");
const p99Ratio = (mode: number) => {
  const value = p99(K![mode]!) / p99(R![mode]!);
  return { median: value, min: value, max: value };
};
targets.push({
  row: "8 callers: Keel / server-filesystem p99",
  value: `${p99Ratio(eight).median.toFixed(2)}x`,
  verdict: meets(p99Ratio(eight).median, 1, "atMost"),
});
judge("1 caller: Keel / server-filesystem calls/s", roundRatio(K![one]!, R![one]!), 1, "atLeast");
targets.push({
  row: "1 caller: Keel / server-filesystem p99",
  value: `${p99Ratio(one).median.toFixed(2)}x`,
  verdict: meets(p99Ratio(one).median, 1, "atMost"),
});
process.stdout.write("\nTargets (ratios are medians of the rounds; p99 over all calls)\n");
printTable(
  targets.map(({ row, value, verdict }) => ({ measure: row, ratio: value, "target: verdict": verdict })),
);
rmSync(base, { recursive: true, force: true });
