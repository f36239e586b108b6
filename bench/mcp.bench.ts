// `keel mcp` beside @modelcontextprotocol/server-filesystem (the reference), same machine, same run,
// both over stdio and driven by the official SDK client:
// 1. spawn to first tools/list answer (median of several starts). Target: Keel < 300 ms. Keel runs as
//    users run it, `bin/keel.js mcp` (the launcher, with its compile cache) over compiled and bundled
//    JavaScript, built fresh into node_modules/.cache (a copy of bin/keel.js beside it) so a stale dist/ cannot
//    flatter or hurt it; the from-source entry (Node strips the types at each start) is shown too.
// 2. 1,000 sequential reads of a 10 KB file (Keel: Read through the whole pipeline, with permission
//    rules loaded and the audit log on; reference: read_text_file). calls/s, p50, p99. Both servers run
//    at once and take turns in 5 blocks of 200 calls, so background load drifting hits both alike.
//    Measured on warm servers, as a long-lived server runs: 1,000 warm-up calls each first (taking
//    turns too), whose p50/p99 are printed apart.
// 3. the same 1,000 reads from 8 concurrent callers (after their own warm-up).
// Targets: Keel's calls/s >= the reference's, Keel's p99 <= the reference's.
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
import { printTable, ratio, summarize } from "./stats.ts";

const REPO = new URL("../", import.meta.url).pathname;
const CALLS = Number(process.env.MCP_BENCH_CALLS ?? 1_000);
const CONCURRENCY = 8;
const STARTS = Number(process.env.MCP_BENCH_STARTS ?? 9);
/** Calls per server before measuring (in blocks of 100, the servers taking turns); a multiple of 100. */
const WARMUP = Number(process.env.MCP_BENCH_WARMUP ?? 1_000);
/** The calls are made in this many blocks per server, alternating between the servers. */
const ROUNDS = Number(process.env.MCP_BENCH_ROUNDS ?? 5);
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
  mkdirSync(join(cache, "bin"));
  cpSync(join(REPO, "bin/keel.js"), launcher);
  // Keel reads its version from the package.json beside dist/, as in an installed package.
  cpSync(join(REPO, "package.json"), join(cache, "package.json"));
  return launcher;
}

const builtLauncher = buildKeel();
if (!builtLauncher)
  process.stdout.write("(could not build Keel with tsc; measuring the from-source entry only)\n");

const base = mkdtempSync(join(tmpdir(), "keel-mcp-bench-"));
const project = join(base, "project");
const home = join(base, "home");
mkdirSync(project);
mkdirSync(home);
const file = join(project, "ten-kb.txt");
const line = "The quick brown fox jumps over the lazy dog; 0123456789 abcdefghijklmnopqrstuvwxyz.\n";
writeFileSync(file, line.repeat(Math.ceil(10_240 / line.length)).slice(0, 10_240));

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

/**
 * CALLS calls per server in ROUNDS blocks, the servers taking turns (who goes first alternates), so a
 * change in background load during the run hits both alike. Same file, same calls, same callers.
 */
async function throughput(servers: Connected[], callers: number) {
  // Warm-up, interleaved in blocks too: both servers' JIT tiers up within the first several hundred
  // calls (Keel has more code on the path, so its tier-up shows in a cold p99). Reported apart.
  const warmups = servers.map(() => [] as number[]);
  for (let round = 0; round < WARMUP / 100; round++) {
    for (const [i, { server, client }] of servers.entries()) {
      const { latencies } = await block(client, server, callers, 100);
      warmups[i]!.push(...latencies);
    }
  }
  const totals = servers.map(() => ({ seconds: 0, latencies: [] as number[] }));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? servers.map((_, i) => i) : servers.map((_, i) => servers.length - 1 - i);
    for (const i of order) {
      const { server, client } = servers[i]!;
      const { seconds, latencies } = await block(client, server, callers, CALLS / ROUNDS);
      totals[i]!.seconds += seconds;
      totals[i]!.latencies.push(...latencies);
    }
  }
  return totals.map(({ seconds, latencies }, i) => {
    const { median, p99 } = summarize(latencies);
    const warm = summarize(warmups[i]!);
    return {
      callsPerSecond: latencies.length / seconds,
      p50: median,
      p99,
      warmupP50: warm.median,
      warmupP99: warm.p99,
    };
  });
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

const rows: Array<Record<string, string | number>> = [];
const results: Record<
  string,
  Record<string, { callsPerSecond: number; p50: number; p99: number; warmupP50: number; warmupP99: number }>
> = {};
const connected: Connected[] = [];
for (const server of [keel, reference]) connected.push({ server, client: (await connect(server)).client });
const sequential = await throughput(connected, 1);
const concurrent = await throughput(connected, CONCURRENCY);
connected.forEach(({ server }, i) => {
  results[server.name] = { sequential: sequential[i]!, concurrent: concurrent[i]! };
});
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

for (const mode of ["sequential", "concurrent"] as const) {
  const k = results[keel.name]![mode]!;
  const r = results[reference.name]![mode]!;
  rows.length = 0;
  rows.push({ server: keel.name, "calls/s": k.callsPerSecond, "p50 ms": k.p50, "p99 ms": k.p99 });
  rows.push({
    server: `${reference.name} (reference)`,
    "calls/s": r.callsPerSecond,
    "p50 ms": r.p50,
    "p99 ms": r.p99,
  });
  process.stdout.write(
    `${CALLS} reads of a 10 KB file, ${mode === "sequential" ? "one caller" : `${CONCURRENCY} concurrent callers`}\n`,
  );
  printTable(rows);
  process.stdout.write(
    `throughput ratio ${ratio(k.callsPerSecond, r.callsPerSecond)} (target >= 1: ${k.callsPerSecond >= r.callsPerSecond ? "met" : "NOT met"}); ` +
      `p99 ratio ${ratio(k.p99, r.p99)} (target <= 1: ${k.p99 <= r.p99 ? "met" : "NOT met"})\n` +
      `the ${WARMUP} warm-up calls before (JIT still tiering up): p50 ${k.warmupP50.toFixed(2)} vs ${r.warmupP50.toFixed(2)} ms, ` +
      `p99 ${k.warmupP99.toFixed(2)} vs ${r.warmupP99.toFixed(2)} ms (ratio ${ratio(k.warmupP99, r.warmupP99)})\n\n`,
  );
}
