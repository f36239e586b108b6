// Glob and Grep on a small tree (2,000 files, bench/.data/, made once and reused) vs ripgrep itself
// producing the same list in the same order: `rg --sortr=modified` where Keel orders newest first,
// `rg --sort=path` where it orders by path (content).
// Each Keel call goes through the whole pipeline (runToolUse) in this process; reference and subject
// alternate run by run, and the medians are compared. Target: <= 1.1x.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runToolUse } from "../src/pipeline/runToolUse.ts";
import { createToolUseContext } from "../src/tool/createContext.ts";
import type { Tool } from "../src/tool/Tool.ts";
import { GlobTool } from "../src/tools/glob/GlobTool.ts";
import { GrepTool } from "../src/tools/grep/GrepTool.ts";
import { ripgrepPath } from "../src/tools/search-shared/ripgrep.ts";
import { type MeasureRow, seededRandom, summarize } from "./stats.ts";

export type { MeasureRow } from "./stats.ts";

const TREE_VERSION = "1";
export const SMALL_TREE_FILES = 2_000;
const TARGET = 1.1;
const BASE_FLAGS = ["--no-config", "--hidden", "--no-require-git", "--color=never"];
const VCS = [".git", ".svn", ".hg", ".bzr", ".jj", ".sl"].map((folder) => `--glob=!${folder}`);

/** 10 packages x 10 modules x 20 files, random mtimes, some lines with "needle". */
export function generateSmallTree(root: string): void {
  const marker = `${root}.complete`;
  if (existsSync(marker)) return;
  rmSync(root, { recursive: true, force: true });
  rmSync(marker, { force: true });
  const extensions = [".ts", ".js", ".md", ".json", ".py"];
  const random = seededRandom(7);
  let made = 0;
  for (let a = 0; a < 10; a++) {
    for (let b = 0; b < 10; b++) {
      const folder = join(root, `pkg${a}`, `mod${b}`);
      mkdirSync(folder, { recursive: true });
      for (let c = 0; c < 20 && made < SMALL_TREE_FILES; c++, made++) {
        const lines = Array.from({ length: 10 }, (_, l) =>
          random() < 0.05 ? `const needle${l} = ${c};` : `export const value${l} = ${a * b + l};`,
        );
        const file = join(folder, `file${c}${extensions[c % extensions.length]}`);
        writeFileSync(file, `${lines.join("\n")}\n`);
        const mtime = 1_600_000_000 + random() * 100_000_000;
        utimesSync(file, mtime, mtime);
      }
    }
  }
  writeFileSync(marker, TREE_VERSION);
}

function rgRun(rg: string, cwd: string, args: readonly string[]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ["ignore", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", reject);
    child.on("close", () => {
      Buffer.concat(chunks).toString("utf8");
      resolve();
    });
  });
}

interface Case {
  name: string;
  tool: "Glob" | "Grep";
  input: Record<string, unknown>;
  rgArgs: string[];
}

function cases(root: string): Case[] {
  const sortedList = (glob: string[]) => [
    ...BASE_FLAGS,
    "--sortr=modified",
    "--files",
    "--null",
    ...glob,
    ...VCS,
    ".",
  ];
  return [
    {
      name: 'small tree: Glob "**/*.ts" vs rg --files --sortr=modified',
      tool: "Glob",
      input: { pattern: "**/*.ts", path: root },
      rgArgs: sortedList(["--glob=/**/*.ts"]),
    },
    {
      name: 'small tree: Glob "**/*" vs rg --files --sortr=modified',
      tool: "Glob",
      input: { pattern: "**/*", path: root },
      rgArgs: sortedList([]),
    },
    {
      name: 'small tree: Grep files "needle" vs rg -l --sortr=modified',
      tool: "Grep",
      input: { pattern: "needle", path: root },
      rgArgs: [
        ...BASE_FLAGS,
        "--sortr=modified",
        "--files-with-matches",
        "--null",
        ...VCS,
        "--regexp",
        "needle",
        "--",
        ".",
      ],
    },
    {
      // Keel orders content by path (stable pages); rg does that itself with --sort=path.
      name: 'small tree: Grep content "needle" vs rg --sort=path, same flags',
      tool: "Grep",
      input: { pattern: "needle", path: root, output_mode: "content" },
      rgArgs: [
        ...BASE_FLAGS,
        "--sort=path",
        "--max-columns=500",
        "--max-columns-preview",
        "--heading",
        "--with-filename",
        "--null",
        "--line-number",
        ...VCS,
        "--regexp",
        "needle",
        "--",
        ".",
      ],
    },
  ];
}

const tools = [GrepTool, GlobTool] as Tool[];
let callId = 0;

async function keelCall(context: ReturnType<typeof createToolUseContext>, entry: Case): Promise<void> {
  let failed: string | undefined;
  const use = { type: "tool_use" as const, id: `s${++callId}`, name: entry.tool, input: entry.input };
  for await (const event of runToolUse(use, context)) {
    if (event.type === "result" && event.isError) failed = JSON.stringify(event.block.content).slice(0, 300);
  }
  if (failed) throw new Error(`${entry.tool} failed: ${failed}`);
}

/** Medians of Keel's Glob/Grep on the small tree and of rg producing the same list, interleaved. */
export async function measureSmallTree(
  options: { iterations?: number; root?: string } = {},
): Promise<MeasureRow[]> {
  const iterations = options.iterations ?? Number(process.env.BENCH_ITERATIONS ?? 40);
  const root = options.root ?? join(import.meta.dirname, ".data", "tree-2k");
  generateSmallTree(root);
  const rg = await ripgrepPath();
  const context = createToolUseContext({ tools, cwd: root });
  const rows: MeasureRow[] = [];
  for (const entry of cases(root)) {
    const subject: number[] = [];
    const reference: number[] = [];
    for (let run = -3; run < iterations; run++) {
      // Alternating which goes first evens out what one leaves behind for the other (caches, load).
      const order = run % 2 === 0 ? ["keel", "rg"] : ["rg", "keel"];
      for (const which of order) {
        const started = performance.now();
        if (which === "keel") await keelCall(context, entry);
        else await rgRun(rg, root, entry.rgArgs);
        const elapsed = performance.now() - started;
        if (run >= 0) (which === "keel" ? subject : reference).push(elapsed);
      }
    }
    rows.push({
      name: entry.name,
      medianMs: summarize(subject).median,
      referenceMs: summarize(reference).median,
      target: TARGET,
    });
  }
  return rows;
}
