// Glob and Grep on a small tree (2,000 files, bench/.data/, made once and reused) vs ripgrep itself
// producing the same list in the same order: `rg --sortr=modified` where Keel orders newest first,
// `rg --sort=path` where it orders by path (content).
// Each Keel call goes through the whole pipeline (runToolUse) in this process; reference and subject
// alternate run by run, and the medians are compared. Target: <= 1.1x.
//
// The tree has a .gitignore, as a project has: generated files (`*.gen.ts`) and one folder are
// ignored. A reference must list what Keel lists, so each one's list is checked against Keel's answer
// before it is timed. `rg --files -g '*.ts'` does not qualify: a --glob overrides .gitignore for the
// files it names (ripgrep's documented precedence), so it lists the ignored `*.gen.ts` too, and it is
// faster for it (rg skips the ignore rules for every file the glob decides). It is still timed and
// printed, as information, without a target.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runToolUse } from "../src/pipeline/runToolUse.ts";
import type { ToolUseContext } from "../src/tool/context.ts";
import { createToolUseContext } from "../src/tool/createContext.ts";
import type { Tool } from "../src/tool/Tool.ts";
import { GlobTool } from "../src/tools/glob/GlobTool.ts";
import { GrepTool } from "../src/tools/grep/GrepTool.ts";
import { ripgrepPath } from "../src/tools/search-shared/ripgrep.ts";
import { type MeasureRow, seededRandom, summarize } from "./stats.ts";

export type { MeasureRow } from "./stats.ts";

const TREE_VERSION = "2";
export const SMALL_TREE_FILES = 2_000;
const TARGET = 1.1;
/** rg flags every Keel search passes (searchArgs.ts), for the references. */
export const BASE_FLAGS = ["--no-config", "--hidden", "--no-require-git", "--color=never"];
export const VCS = [".git", ".svn", ".hg", ".bzr", ".jj", ".sl"].map((folder) => `--glob=!${folder}`);
/** What the tree's .gitignore leaves out: one file in five .ts files, and one module folder. */
const GITIGNORE = "# generated\n*.gen.ts\n/pkg9/mod9/\n*.log\n";

/**
 * 10 packages x 10 modules x 20 files, random mtimes, some lines with "needle"; every module's last
 * .ts file is a generated `*.gen.ts`, which the root .gitignore ignores, as it does pkg9/mod9/.
 */
export function generateSmallTree(root: string): void {
  const marker = `${root}.complete`;
  if (existsSync(marker) && readMarker(marker) === TREE_VERSION) return;
  rmSync(root, { recursive: true, force: true });
  rmSync(marker, { force: true });
  const extensions = [".ts", ".js", ".md", ".json", ".py"];
  const random = seededRandom(7);
  let made = 0;
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, ".gitignore"), GITIGNORE);
  for (let a = 0; a < 10; a++) {
    for (let b = 0; b < 10; b++) {
      const folder = join(root, `pkg${a}`, `mod${b}`);
      mkdirSync(folder, { recursive: true });
      for (let c = 0; c < 20 && made < SMALL_TREE_FILES; c++, made++) {
        const lines = Array.from({ length: 10 }, (_, l) =>
          random() < 0.05 ? `const needle${l} = ${c};` : `export const value${l} = ${a * b + l};`,
        );
        const extension = c === 15 ? ".gen.ts" : extensions[c % extensions.length];
        const file = join(folder, `file${c}${extension}`);
        writeFileSync(file, `${lines.join("\n")}\n`);
        const mtime = 1_600_000_000 + random() * 100_000_000;
        utimesSync(file, mtime, mtime);
      }
    }
  }
  writeFileSync(marker, TREE_VERSION);
}

function readMarker(marker: string): string {
  try {
    return readFileSync(marker, "utf8");
  } catch {
    return "";
  }
}

/** rg run to its end, its output collected and decoded as Keel would; resolves with the output. */
export function rgRun(rg: string, cwd: string, args: readonly string[]): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ["ignore", "pipe", "ignore"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", reject);
    child.on("close", () => {
      const output = Buffer.concat(chunks);
      output.toString("utf8");
      resolve(output);
    });
  });
}

interface Case {
  name: string;
  tool: "Glob" | "Grep";
  input: Record<string, unknown>;
  rgArgs: string[];
  /**
   * rg's list (NUL-separated paths) against Keel's answer before timing: "same" must match, "differs"
   * is shown beside the row (a reference timed for information), "unchecked" is not compared.
   */
  list: "same" | "differs" | "unchecked";
  /** No target: timed for information (a reference that does not produce Keel's list). */
  target?: number;
}

const NAME_PATTERN = "**/*.ts";

function cases(root: string): Case[] {
  const sortedList = (filter: string[]) => [
    ...BASE_FLAGS,
    "--sortr=modified",
    "--files",
    "--null",
    ...filter,
    ...VCS,
    ".",
  ];
  return [
    {
      name: `small tree: Glob "${NAME_PATTERN}" vs rg --files --sortr=modified --type-add 'only:*.ts' -t only`,
      tool: "Glob",
      input: { pattern: NAME_PATTERN, path: root },
      rgArgs: sortedList(["--type-add=only:*.ts", "--type=only"]),
      list: "same",
      target: TARGET,
    },
    {
      name: `(information) Glob "${NAME_PATTERN}" vs rg --files --sortr=modified -g '/**/*.ts', which lists gitignored *.gen.ts too`,
      tool: "Glob",
      input: { pattern: NAME_PATTERN, path: root },
      rgArgs: sortedList([`--glob=/${NAME_PATTERN}`]),
      list: "differs",
    },
    {
      name: 'small tree: Glob "**/*" vs rg --files --sortr=modified',
      tool: "Glob",
      input: { pattern: "**/*", path: root },
      rgArgs: sortedList([]),
      list: "same",
      target: TARGET,
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
      list: "same",
      target: TARGET,
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
      list: "unchecked",
      target: TARGET,
    },
  ];
}

/** The search tools, for a context the benches make. */
export const searchTools = [GrepTool, GlobTool] as Tool[];
let callId = 0;

/** One call through the whole pipeline; the result's text. Throws on an error result. */
export async function runSearchTool(
  context: ToolUseContext,
  name: string,
  input: Record<string, unknown>,
): Promise<string> {
  let text = "";
  let failed = false;
  const use = { type: "tool_use" as const, id: `s${++callId}`, name, input };
  for await (const event of runToolUse(use, context)) {
    if (event.type !== "result") continue;
    const content = event.block.content;
    text = typeof content === "string" ? content : JSON.stringify(content);
    failed = event.isError;
  }
  if (failed) throw new Error(`${name} failed: ${text.slice(0, 300)}`);
  return text;
}

/**
 * Whether rg's list is Keel's answer: Keel's paths (a first page) are rg's first paths in the same
 * order, and the total Keel reports is the number rg listed. Undefined when it is, else why not.
 */
export function listMismatch(root: string, keelText: string, rgOutput: Buffer): string | undefined {
  const listed = rgOutput
    .toString("utf8")
    .split("\0")
    .filter(Boolean)
    .map((path) => join(root, path));
  const shown = keelText.split("\n").filter((line) => line.startsWith(`${root}/`));
  const total = Number(
    /\bof (\d+) files\b/.exec(keelText)?.[1] ?? /^Found (\d+) files?\b/m.exec(keelText)?.[1] ?? shown.length,
  );
  if (shown.length === 0) return "Keel listed nothing";
  if (total !== listed.length) return `rg lists ${listed.length} files, Keel ${total}`;
  const differs = shown.findIndex((path, index) => path !== listed[index]);
  if (differs !== -1) return `entry ${differs + 1}: rg has ${listed[differs]}, Keel ${shown[differs]}`;
  return undefined;
}

/** Medians of Keel's Glob/Grep on the small tree and of rg producing the same list, interleaved. */
export async function measureSmallTree(
  options: { iterations?: number; root?: string } = {},
): Promise<MeasureRow[]> {
  const iterations = options.iterations ?? Number(process.env.BENCH_ITERATIONS ?? 40);
  const root = options.root ?? join(import.meta.dirname, ".data", "tree-2k");
  generateSmallTree(root);
  const rg = await ripgrepPath();
  const context = createToolUseContext({ tools: searchTools, cwd: root });
  const rows: MeasureRow[] = [];
  for (const entry of cases(root)) {
    const mismatch =
      entry.list === "unchecked"
        ? undefined
        : listMismatch(
            root,
            await runSearchTool(context, entry.tool, entry.input),
            await rgRun(rg, root, entry.rgArgs),
          );
    if (entry.list === "same" && mismatch)
      throw new Error(`${entry.name}: the reference does not list what Keel lists (${mismatch})`);
    const subject: number[] = [];
    const reference: number[] = [];
    for (let run = -3; run < iterations; run++) {
      // Alternating which goes first evens out what one leaves behind for the other (caches, load).
      const order = run % 2 === 0 ? ["keel", "rg"] : ["rg", "keel"];
      for (const which of order) {
        const started = performance.now();
        if (which === "keel") await runSearchTool(context, entry.tool, entry.input);
        else await rgRun(rg, root, entry.rgArgs);
        const elapsed = performance.now() - started;
        if (run >= 0) (which === "keel" ? subject : reference).push(elapsed);
      }
    }
    rows.push({
      name: mismatch ? `${entry.name} (${mismatch})` : entry.name,
      medianMs: summarize(subject).median,
      referenceMs: summarize(reference).median,
      ...(entry.target === undefined ? {} : { target: entry.target }),
    });
  }
  return rows;
}
