// `keel audit --summary` and `keel audit --limit 1` over a generated 300 MB audit log (a month of heavy
// use: 30 days of 10 MB, about 550 bytes a record, Keel's own calls and keel hook's with their
// PermissionRequest follow-ups), as real processes, with peak memory (maximum resident set size, from
// GNU time) and time. References measured in the same run over the same files: `wc -l` and
// `cat > /dev/null` for time; for memory `node -e 0` (what any Node process starts with, most of it the
// Node binary's own pages) and the least a Node program streaming this log needs: readline and JSON.parse
// over every line, nothing kept. Target: peak RSS under 100 MB for every read, whatever the log's size
// (it was 1.29 GB for --summary of a 307 MB log when the whole log was loaded); time is reported.
// Runs the built launcher (bin/keel.js over dist/): run `npm run build` first.
//   AUDIT_BENCH_MB=300 AUDIT_BENCH_RUNS=3 node bench/audit.bench.ts
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { segmentName } from "../src/audit/segments.ts";
import { printTable } from "./stats.ts";

const REPO = new URL("../", import.meta.url).pathname;
const LAUNCHER = join(REPO, "bin/keel.js");
const TOTAL_MB = Number(process.env.AUDIT_BENCH_MB ?? 300);
const RUNS = Number(process.env.AUDIT_BENCH_RUNS ?? 3);
const DAYS = 30;
const TARGET_RSS_MB = 100;
const GNU_TIME = "/usr/bin/time";

if (!existsSync(join(REPO, "dist/cli/main.js"))) {
  process.stdout.write("dist/ is missing: run `npm run build` first\n");
  process.exit(1);
}
if (!existsSync(GNU_TIME)) {
  process.stdout.write(
    "GNU time is missing (/usr/bin/time; Debian package `time`): it measures peak memory\n",
  );
  process.exit(1);
}

const home = mkdtempSync(join(tmpdir(), "keel-audit-bench-"));
const dir = join(home, ".keel", "audit");
mkdirSync(dir, { recursive: true });
process.on("exit", () => rmSync(home, { recursive: true, force: true }));

const TOOLS = ["Bash", "Read", "Edit", "Grep", "Glob", "Write"];
const AGENTS = [undefined, undefined, "claude-code", "codex"];

/** One record of about 550 bytes, varied the way a month of calls varies. */
function record(i: number, time: string): Record<string, unknown> {
  const agent = AGENTS[i % AGENTS.length];
  const tool = TOOLS[i % TOOLS.length]!;
  const base = {
    time,
    sessionId: `5e55${(i >> 10).toString(16).padStart(4, "0")}-0000-4000-8000-${String(i % 997).padStart(12, "0")}`,
    toolUseId: `toolu_${i.toString(36).padStart(20, "0")}`,
    tool,
    inputSummary: JSON.stringify({
      command: `npm test -- --filter case-${i % 5000} && git status --short src/`,
    }),
    behavior: i % 11 === 0 ? "deny" : i % 7 === 0 ? "ask" : "allow",
    decidedBy: `allow rule ${tool}(npm test:*) from project settings`,
    decisionReason: {
      type: "rule",
      rule: { behavior: "allow", source: "project", value: { toolName: tool } },
    },
    hooks:
      i % 3 === 0
        ? [{ hookName: "check.sh", event: "PreToolUse", outcome: "success", exitCode: 0, durationMs: 14 }]
        : [],
    durationMs: { total: 120.5, permission: 3.2, call: 110.1 },
    resultChars: 1234 + (i % 100),
    isError: false,
  };
  return agent ? { ...base, agent, hookEvent: i % 8 === 6 ? "PermissionRequest" : "PreToolUse" } : base;
}

function generate(): { files: string[]; records: number; bytes: number } {
  const perFile = Math.round((TOTAL_MB * 1024 * 1024) / DAYS);
  const start = Date.now() - DAYS * 86_400_000;
  const files: string[] = [];
  let records = 0;
  let bytes = 0;
  for (let day = 0; day < DAYS; day++) {
    const startMs = start + day * 86_400_000;
    const path = join(dir, segmentName(startMs));
    files.push(path);
    const fd = openSync(path, "w", 0o600);
    let written = 0;
    let chunk = "";
    while (written < perFile) {
      const line = `${JSON.stringify(record(records, new Date(startMs + records * 10).toISOString()))}\n`;
      chunk += line;
      written += line.length;
      records++;
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = "";
      }
    }
    writeSync(fd, chunk);
    closeSync(fd);
    bytes += written;
  }
  return { files, records, bytes };
}

interface Measured {
  seconds: number;
  rssMb: number;
}

/** Runs argv under GNU time (output to /dev/null), `RUNS` times: the median time and the highest peak RSS. */
function measure(argv: string[], env: NodeJS.ProcessEnv = process.env): Measured {
  const seconds: number[] = [];
  let rssKb = 0;
  for (let run = 0; run < RUNS; run++) {
    const result = spawnSync(GNU_TIME, ["-f", "%e %M", ...argv], {
      env,
      encoding: "utf8",
      stdio: ["ignore", "ignore", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
    if (result.status !== 0) throw new Error(`${argv.join(" ")} exited ${result.status}: ${result.stderr}`);
    const [elapsed, maxRss] = result.stderr.trim().split("\n").at(-1)!.split(" ").map(Number);
    seconds.push(elapsed!);
    rssKb = Math.max(rssKb, maxRss!);
  }
  seconds.sort((a, b) => a - b);
  return { seconds: seconds[Math.floor(seconds.length / 2)]!, rssMb: rssKb / 1024 };
}

const generated = generate();
process.stdout.write(
  `audit log: ${generated.files.length} segments, ${(generated.bytes / 1024 / 1024).toFixed(0)} MB, ${generated.records} records (${Math.round(generated.bytes / generated.records)} bytes each); ${RUNS} runs each\n\n`,
);
const keelEnv = { ...process.env, HOME: home, KEEL_HOME: home, KEEL_DECISION_SERVER: "off" };
const wc = measure(["wc", "-l", ...generated.files]);
const cat = measure(["sh", "-c", 'cat "$@" > /dev/null', "cat", ...generated.files]);
const node = measure([process.execPath, "-e", "0"]);
const STREAM_EVERY_LINE = `
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
let records = 0;
for (const file of process.argv.slice(1))
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity }))
    if (JSON.parse(line).tool) records++;
`;
const streamed = measure([
  process.execPath,
  "--input-type=module",
  "-e",
  STREAM_EVERY_LINE,
  ...generated.files,
]);
const summary = measure([process.execPath, LAUNCHER, "audit", "--summary"], keelEnv);
const last = measure([process.execPath, LAUNCHER, "audit", "--limit", "1"], keelEnv);
const all = measure([process.execPath, LAUNCHER, "audit", "--json"], keelEnv);

const row = (name: string, m: Measured, target: string) => ({
  command: name,
  "time s": m.seconds,
  "vs wc -l": `${(m.seconds / wc.seconds).toFixed(1)}x`,
  "peak RSS MB": m.rssMb,
  "vs readline": `${(m.rssMb / streamed.rssMb).toFixed(2)}x`,
  "RSS target": target,
});
printTable([
  row("wc -l (reference)", wc, ""),
  row("cat > /dev/null", cat, ""),
  row("node -e 0 (memory floor)", node, ""),
  row("node readline + JSON.parse, every line", streamed, ""),
  row("keel audit --summary", summary, `< ${TARGET_RSS_MB} MB`),
  row("keel audit --limit 1", last, `< ${TARGET_RSS_MB} MB`),
  row("keel audit --json (every record)", all, `< ${TARGET_RSS_MB} MB`),
]);
const over = [summary, last, all].filter((m) => m.rssMb >= TARGET_RSS_MB);
process.stdout.write(
  over.length === 0
    ? `\nPASS: every read of the ${TOTAL_MB} MB log stayed under ${TARGET_RSS_MB} MB resident\n`
    : `\nFAIL: ${over.length} read(s) went over ${TARGET_RSS_MB} MB resident\n`,
);
process.exitCode = over.length === 0 ? 0 : 1;
