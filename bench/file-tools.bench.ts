// File tools against references measured in the same run:
// 1. Read: 2,000 lines from line 5,000,000 of a generated 1 GiB file (bench/.data/, made once) vs
//    `tail -n +5000000 | head -n 2000`. Time ratio (target <= 2) and the peak memory of the process
//    doing the Keel read (target < 100 MB), measured in a fresh child process per run.
// 2. Edit: one replacement in a 50 MB file through the whole pipeline vs a plain read-replace-write in
//    Node (target <= 2).
// 3. Edit of a 4 KB file through the whole pipeline (read-state check, cross-process lock, atomic write
//    with the re-check before the rename) vs the same durable write by hand: read, replace, temp file,
//    fsync, rename, fsync the folder; and the cross-process lock alone against it. Both for information:
//    fsync times on a shared machine vary too much for a target (measured: Keel 1.9-6 ms, by hand 0.5-5 ms).
// FILE_BENCH_ONLY=read|edit|small-edit runs one part.
// Runs interleave keel and reference; medians are reported. `node bench/file-tools.bench.ts`.
import { spawnSync } from "node:child_process";
import {
  closeSync,
  cpSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runToolUse } from "../src/pipeline/runToolUse.ts";
import type { ToolUseContext } from "../src/tool/context.ts";
import { createToolUseContext } from "../src/tool/createContext.ts";
import type { Tool } from "../src/tool/Tool.ts";
import { EditTool } from "../src/tools/edit/EditTool.ts";
import { ReadTool } from "../src/tools/read/ReadTool.ts";
import { acquireProcessLock } from "../src/tools/shared/processLock.ts";
import { printTable, summarize } from "./stats.ts";

const projectRoot = join(import.meta.dirname, "..");
const dataDir = join(import.meta.dirname, ".data");
const RUNS = Number(process.env.FILE_BENCH_RUNS ?? 5);
const BIG_FILE = join(dataDir, "file-tools-1gib-v2.txt");
const BIG_BYTES = 1 << 30;
const OFFSET = 5_000_000;
const LIMIT = 2_000;
const EDIT_FILE = join(dataDir, "file-tools-50mb.txt");
const EDIT_BYTES = 50 * 1000 * 1000;
const MB = 1024 * 1024;

/** About 37 bytes: 2,000 numbered lines stay under Read's 25,000-token limit, as source code lines do. */
function line(n: number): string {
  return `${n}: const value = compute(${n % 997});\n`;
}

/** About 30 million short lines (line 5,000,000 starts about 170 MB in); made only when missing. */
function ensureBigFile(): void {
  if (existsSync(BIG_FILE) && statSync(BIG_FILE).size >= BIG_BYTES) return;
  mkdirSync(dataDir, { recursive: true });
  process.stdout.write(`Generating ${BIG_FILE} (1 GiB, once)...\n`);
  const fd = openSync(BIG_FILE, "w");
  let written = 0;
  let n = 0;
  while (written < BIG_BYTES) {
    const parts: string[] = [];
    let size = 0;
    while (size < 8 * MB) {
      const text = line(++n);
      parts.push(text);
      size += text.length;
    }
    written += writeSync(fd, Buffer.from(parts.join("")));
  }
  closeSync(fd);
}

function median(samples: number[]): number {
  return summarize(samples).median;
}

// --- 1. Read deep inside a 1 GiB file ------------------------------------------------------------

interface ChildReadResult {
  callMs: number;
  maxRssKb: number;
  rssBeforeCallKb: number;
  firstLine: string;
  lastLine: string;
  lines: number;
}

/**
 * A fresh process doing one Read call through the pipeline: its time and the process's peak RSS.
 * `base` is the folder of the modules: the JavaScript build (as Keel ships) or src/ (type stripping).
 */
function childScript(base: string, extension: ".js" | ".ts"): string {
  const url = (path: string) => JSON.stringify(pathToFileURL(join(base, path + extension)).href);
  return `
    const { ReadTool } = await import(${url("tools/read/ReadTool")});
    const { createToolUseContext } = await import(${url("tool/createContext")});
    const { runToolUse } = await import(${url("pipeline/runToolUse")});
    const context = createToolUseContext({ tools: [ReadTool], cwd: ${JSON.stringify(projectRoot)} });
    const rssBeforeCallKb = process.resourceUsage().maxRSS;
    const started = performance.now();
    let text = "";
    const input = { file_path: ${JSON.stringify(BIG_FILE)}, offset: ${OFFSET}, limit: ${LIMIT} };
    for await (const event of runToolUse({ type: "tool_use", id: "r", name: "Read", input }, context)) {
      if (event.type !== "result") continue;
      if (event.isError) throw new Error(JSON.stringify(event.block.content));
      text = event.block.content;
    }
    const callMs = performance.now() - started;
    const lines = text.split("\\n").filter((l) => /^ *\\d+\\t/.test(l)).map((l) => l.replace(/^ *\\d+\\t/, ""));
    process.stdout.write(JSON.stringify({
      callMs, maxRssKb: process.resourceUsage().maxRSS, rssBeforeCallKb,
      firstLine: lines[0], lastLine: lines.at(-1), lines: lines.length,
    }));
  `;
}

function runChild(script: string): ChildReadResult & { wallMs: number } {
  const started = performance.now();
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    maxBuffer: 64 * MB,
  });
  const wallMs = performance.now() - started;
  if (run.status !== 0) throw new Error(`child failed: ${run.stderr}`);
  return { ...(JSON.parse(run.stdout) as ChildReadResult), wallMs };
}

/** Builds src/ to JavaScript under bench/.data/build (prompt.md files copied), as `npm run build` does. */
function buildJavaScript(): string {
  const outDir = join(dataDir, "build");
  rmSync(outDir, { recursive: true, force: true });
  const tsc = join(projectRoot, "node_modules", ".bin", "tsc");
  const run = spawnSync(tsc, ["-p", "tsconfig.build.json", "--outDir", outDir, "--declaration", "false"], {
    cwd: projectRoot,
    encoding: "utf8",
  });
  if (!existsSync(join(outDir, "tools", "read", "ReadTool.js")))
    throw new Error(`build failed: ${run.stdout}${run.stderr}`);
  const copy = (from: string, to: string) => {
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      if (entry.isDirectory()) copy(join(from, entry.name), join(to, entry.name));
      else if (entry.name.endsWith(".md")) cpSync(join(from, entry.name), join(to, entry.name));
    }
  };
  copy(join(projectRoot, "src"), outDir);
  return outDir;
}

function bareNodeRssKb(): number {
  const run = spawnSync(
    process.execPath,
    ["-e", "process.stdout.write(String(process.resourceUsage().maxRSS))"],
    {
      encoding: "utf8",
    },
  );
  return Number(run.stdout);
}

function tailHead(): { ms: number; lines: string[] } {
  const started = performance.now();
  const run = spawnSync("sh", ["-c", `tail -n +${OFFSET} "$0" | head -n ${LIMIT}`, BIG_FILE], {
    encoding: "utf8",
    maxBuffer: 64 * MB,
  });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`tail | head failed: ${run.stderr}`);
  return { ms, lines: run.stdout.split("\n").filter((l) => l !== "") };
}

function benchRead(): Array<Record<string, string | number>> {
  ensureBigFile();
  const built = childScript(buildJavaScript(), ".js");
  const fromSource = childScript(join(projectRoot, "src"), ".ts");
  // Warm the page cache for both sides and check they agree; the first runs are not counted.
  const reference = tailHead();
  const first = runChild(built);
  if (
    first.firstLine !== reference.lines[0] ||
    first.lastLine !== reference.lines.at(-1) ||
    first.lines !== LIMIT
  ) {
    throw new Error(
      `Keel's Read returned other lines than tail | head: ${first.firstLine} / ${reference.lines[0]}`,
    );
  }
  const keel: number[] = [];
  const keelWall: number[] = [];
  const rss: number[] = [];
  const rssGrowth: number[] = [];
  const ref: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const child = runChild(built);
    keel.push(child.callMs);
    keelWall.push(child.wallMs);
    rss.push(child.maxRssKb / 1024);
    rssGrowth.push((child.maxRssKb - child.rssBeforeCallKb) / 1024);
    ref.push(tailHead().ms);
  }
  const source = runChild(fromSource);
  const ratio = median(keel) / median(ref);
  const peak = Math.max(...rss);
  const mb = (value: number) => `${value.toFixed(1)} MB`;
  return [
    {
      measure: "Read 2,000 lines @5,000,000 (in-process call)",
      keel: `${median(keel).toFixed(1)} ms`,
      reference: `${median(ref).toFixed(1)} ms (tail | head)`,
      ratio: ratio.toFixed(2),
      target: "<= 2",
      result: ratio <= 2 ? "PASS" : "FAIL",
    },
    {
      measure: "  same, whole child process (node start incl.)",
      keel: `${median(keelWall).toFixed(1)} ms`,
      reference: "",
      ratio: (median(keelWall) / median(ref)).toFixed(2),
      target: "info",
      result: "",
    },
    {
      measure: "Peak RSS of the reading process (JS build)",
      keel: mb(peak),
      reference: `${mb(bareNodeRssKb() / 1024)} (bare node)`,
      ratio: "",
      target: "< 100 MB",
      result: peak < 100 ? "PASS" : "FAIL",
    },
    {
      measure: "  RSS growth during the Read call",
      keel: mb(Math.max(...rssGrowth)),
      reference: "",
      ratio: "",
      target: "info",
      result: "",
    },
    {
      measure: "  peak RSS running src/*.ts (type stripping)",
      keel: mb(source.maxRssKb / 1024),
      reference: "",
      ratio: "",
      target: "info",
      result: "",
    },
  ];
}

// --- 2. Edit in a 50 MB file ---------------------------------------------------------------------

const MARKERS = ["NEEDLE_ALPHA_0001", "NEEDLE_OMEGA_0002"] as const;

function makeEditFile(): void {
  mkdirSync(dataDir, { recursive: true });
  const parts: string[] = [];
  let size = 0;
  let n = 0;
  while (size < EDIT_BYTES / 2) {
    const text = line(++n);
    parts.push(text);
    size += text.length;
  }
  const half = parts.join("");
  writeFileSync(EDIT_FILE, `${half}const marker = "${MARKERS[0]}";\n${half}`);
}

async function keelEdit(context: ToolUseContext, from: string, to: string): Promise<number> {
  const started = performance.now();
  for await (const event of runToolUse(
    {
      type: "tool_use",
      id: `e-${from}`,
      name: "Edit",
      input: { file_path: EDIT_FILE, old_string: from, new_string: to },
    },
    context,
  )) {
    if (event.type === "result" && event.isError) throw new Error(JSON.stringify(event.block.content));
  }
  return performance.now() - started;
}

function plainEdit(from: string, to: string): number {
  const started = performance.now();
  const text = readFileSync(EDIT_FILE, "utf8");
  writeFileSync(EDIT_FILE, text.replace(from, to));
  return performance.now() - started;
}

async function benchEdit(): Promise<Array<Record<string, string | number>>> {
  makeEditFile();
  const context = createToolUseContext({
    tools: [ReadTool, EditTool] as Tool[],
    cwd: projectRoot,
    mode: "acceptEdits",
  });
  const readFirst = async () => {
    for await (const event of runToolUse(
      { type: "tool_use", id: "read", name: "Read", input: { file_path: EDIT_FILE, limit: 10 } },
      context,
    )) {
      if (event.type === "result" && event.isError) throw new Error(JSON.stringify(event.block.content));
    }
  };
  const keel: number[] = [];
  const ref: number[] = [];
  const current = 0;
  for (let i = 0; i < RUNS + 1; i++) {
    const next = 1 - current;
    await readFirst();
    const k = await keelEdit(context, MARKERS[current] as string, MARKERS[next] as string);
    const r = plainEdit(MARKERS[next] as string, MARKERS[current] as string);
    if (i > 0) {
      keel.push(k);
      ref.push(r);
    }
  }
  if (!readFileSync(EDIT_FILE, "utf8").includes(MARKERS[current] as string))
    throw new Error("edits did not land");
  const ratio = median(keel) / median(ref);
  return [
    {
      measure: "Edit in a 50 MB file (pipeline call)",
      keel: `${median(keel).toFixed(1)} ms`,
      reference: `${median(ref).toFixed(1)} ms (read-replace-write)`,
      ratio: ratio.toFixed(2),
      target: "<= 2",
      result: ratio <= 2 ? "PASS" : "FAIL",
    },
  ];
}

// --- 3. Edit of a small file ------------------------------------------------------------------------

const SMALL_FILE = join(dataDir, "file-tools-4kb.txt");
const SMALL_RUNS = Number(process.env.FILE_BENCH_SMALL_RUNS ?? 200);

/** What an atomic edit costs without Keel: read, replace, write a temp file, fsync it, rename it, fsync the folder. */
function plainAtomicEdit(from: string, to: string): number {
  const started = performance.now();
  const text = readFileSync(SMALL_FILE, "utf8");
  const temp = `${SMALL_FILE}.bench-tmp`;
  const fd = openSync(temp, "w");
  writeSync(fd, text.replace(from, to));
  fsyncSync(fd);
  closeSync(fd);
  renameSync(temp, SMALL_FILE);
  const folder = openSync(dataDir, "r");
  fsyncSync(folder);
  closeSync(folder);
  return performance.now() - started;
}

async function benchSmallEdit(): Promise<Array<Record<string, string | number>>> {
  mkdirSync(dataDir, { recursive: true });
  const body = Array.from({ length: 110 }, (_, n) => line(n)).join("");
  writeFileSync(SMALL_FILE, `const marker = "${MARKERS[0]}";\n${body}`);
  const context = createToolUseContext({
    tools: [ReadTool, EditTool] as Tool[],
    cwd: projectRoot,
    mode: "acceptEdits",
  });
  const call = async (name: string, input: Record<string, unknown>) => {
    const started = performance.now();
    for await (const event of runToolUse({ type: "tool_use", id: `s-${name}`, name, input }, context)) {
      if (event.type === "result" && event.isError) throw new Error(JSON.stringify(event.block.content));
    }
    return performance.now() - started;
  };
  const keel: number[] = [];
  const ref: number[] = [];
  const lock: number[] = [];
  for (let i = 0; i < SMALL_RUNS + 5; i++) {
    // Keel's edit turns marker 0 into 1; the plain one turns it back; both read the file the same way.
    await call("Read", { file_path: SMALL_FILE });
    const k = await call("Edit", { file_path: SMALL_FILE, old_string: MARKERS[0], new_string: MARKERS[1] });
    const r = plainAtomicEdit(MARKERS[1], MARKERS[0]);
    const started = performance.now();
    const held = await acquireProcessLock(SMALL_FILE);
    await held.release();
    const l = performance.now() - started;
    if (i >= 5) {
      keel.push(k);
      ref.push(r);
      lock.push(l);
    }
  }
  if (!readFileSync(SMALL_FILE, "utf8").includes(MARKERS[0])) throw new Error("edits did not land");
  return [
    {
      measure: "Edit in a 4 KB file (pipeline call)",
      keel: `${median(keel).toFixed(2)} ms`,
      reference: `${median(ref).toFixed(2)} ms (read, replace, temp, fsync, rename, fsync folder)`,
      ratio: (median(keel) / median(ref)).toFixed(2),
      target: "info",
      result: "-",
    },
    {
      measure: "cross-process lock taken and released",
      keel: `${median(lock).toFixed(2)} ms`,
      reference: `${median(ref).toFixed(2)} ms (the durable write above)`,
      ratio: (median(lock) / median(ref)).toFixed(2),
      target: "info",
      result: "-",
    },
  ];
}

async function main(): Promise<void> {
  process.stdout.write(
    `File tools benchmark: Node ${process.version}, ${process.platform} ${process.arch}, ${RUNS} runs, medians\n\n`,
  );
  const only = process.env.FILE_BENCH_ONLY;
  const rows = [
    ...(only === undefined || only === "read" ? benchRead() : []),
    ...(only === undefined || only === "edit" ? await benchEdit() : []),
    ...(only === undefined || only === "small-edit" ? await benchSmallEdit() : []),
  ];
  printTable(rows);
  if (rows.some((row) => row.result === "FAIL")) process.exitCode = 1;
}

await main();
