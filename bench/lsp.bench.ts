// The LSP tool on Keel's own source, through the whole pipeline (runToolUse), against Grep finding the
// same symbol in the same run.
// 1. Cold: a fresh session's first goToDefinition (server start, project load, answer), a few times.
// 2. Warm: goToDefinition and findReferences of `buildTool` from src/tools/read/ReadTool.ts, medians.
//    Target: warm median under 50 ms.
// 3. Reference: Keel's Grep (content mode, `\bbuildTool\b` over src/) and rg itself, same run.
// KEEL_BENCH_TSSERVER=/path/to/typescript/lib/tsserver.js (a TypeScript 5/6 install) adds the same
// measurements for typescript-language-server over that tsserver: the evaluation that chose
// TypeScript 7's native server as the bundled one.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { LanguageServer } from "../src/lsp/languageServer.ts";
import type { ServerLaunch } from "../src/lsp/launch.ts";
import { stopLanguageServers } from "../src/lsp/sessionServers.ts";
import { bundledTypeScript, nativeExecutable } from "../src/lsp/typescriptLaunch.ts";
import { runToolUse } from "../src/pipeline/runToolUse.ts";
import type { ToolUseContext } from "../src/tool/context.ts";
import { createToolUseContext } from "../src/tool/createContext.ts";
import type { Tool } from "../src/tool/Tool.ts";
import { GrepTool } from "../src/tools/grep/GrepTool.ts";
import { LspTool } from "../src/tools/lsp/LspTool.ts";
import { ripgrepPath } from "../src/tools/search-shared/ripgrep.ts";
import { printTable, ratio, summarize } from "./stats.ts";

const root = join(import.meta.dirname, "..");
const RUNS = Number(process.env.LSP_BENCH_RUNS ?? 30);
const COLD_RUNS = Number(process.env.LSP_BENCH_COLD_RUNS ?? 3);
const TARGET_MS = 50;
const file = join(root, "src", "tools", "read", "ReadTool.ts");
const lines = readFileSync(file, "utf8").split("\n");
const lineIndex = lines.findIndex((line) => line.startsWith("export const ReadTool"));
const position = { line: lineIndex + 1, character: (lines[lineIndex] ?? "").indexOf("buildTool<") + 1 };

let callId = 0;
async function call(tool: Tool, input: Record<string, unknown>, context: ToolUseContext): Promise<string> {
  for await (const event of runToolUse(
    { type: "tool_use", id: `b${++callId}`, name: tool.name, input },
    context,
  )) {
    if (event.type !== "result") continue;
    const content = event.block.content;
    const text = typeof content === "string" ? content : JSON.stringify(content);
    if (event.block.is_error) throw new Error(`${tool.name} failed: ${text}`);
    return text;
  }
  throw new Error("no result");
}

const session = () => createToolUseContext({ tools: [LspTool, GrepTool] as Tool[], cwd: root });
const definition = { operation: "goToDefinition", filePath: file, ...position };
const references = { operation: "findReferences", filePath: file, ...position };
const grep = { pattern: "\\bbuildTool\\b", path: join(root, "src"), output_mode: "content", "-n": true };

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function coldFirstQuery(): Promise<number[]> {
  const samples: number[] = [];
  for (let run = 0; run < COLD_RUNS; run++) {
    const context = session();
    samples.push(await timed(() => call(LspTool, definition, context)));
    await stopLanguageServers(context.options.sessionId);
  }
  return samples;
}

async function warm(): Promise<Record<string, number[]>> {
  const context = session();
  const first = await call(LspTool, definition, context);
  if (!first.includes("src/tool/Tool.ts")) throw new Error(`unexpected definition: ${first}`);
  const refs = await call(LspTool, references, context);
  const grepped = await call(GrepTool, grep, context);
  process.stdout.write(
    `findReferences: ${refs.split("\n")[0]}; Grep: ${grepped.split("\n").filter((l) => l.includes("buildTool")).length} matching lines\n`,
  );
  const samples: Record<string, number[]> = { goToDefinition: [], findReferences: [], Grep: [], rg: [] };
  const rg = await ripgrepPath();
  for (let run = 0; run < RUNS; run++) {
    samples.goToDefinition?.push(await timed(() => call(LspTool, definition, context)));
    samples.findReferences?.push(await timed(() => call(LspTool, references, context)));
    samples.Grep?.push(await timed(() => call(GrepTool, grep, context)));
    samples.rg?.push(
      await timed(async () => spawnSync(rg, ["-n", "--no-config", "\\bbuildTool\\b", join(root, "src")])),
    );
  }
  await stopLanguageServers(context.options.sessionId);
  return samples;
}

/** The same cold and warm measurements straight on a server (no pipeline), for comparing servers. */
async function serverOnly(launch: ServerLaunch): Promise<Record<string, number>> {
  const text = readFileSync(file, "utf8");
  const at = {
    textDocument: { uri: `file://${file}` },
    position: { line: position.line - 1, character: position.character - 1 },
  };
  const started = performance.now();
  const server = await LanguageServer.start({
    name: "typescript",
    launch,
    root,
    languageIdFor: () => "typescript",
    startupTimeoutMs: 120_000,
    requestTimeoutMs: 120_000,
  });
  server.documents.sync(file, text);
  // Some servers answer from syntax alone while the project loads: wait for the real answer.
  while (!JSON.stringify(await server.request("textDocument/definition", at)).includes("tool/Tool.ts"))
    await new Promise((resolve) => setTimeout(resolve, 50));
  const cold = performance.now() - started;
  const defs: number[] = [];
  const refs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    defs.push(await timed(() => server.request("textDocument/definition", at)));
    refs.push(
      await timed(() =>
        server.request("textDocument/references", { ...at, context: { includeDeclaration: true } }),
      ),
    );
  }
  await server.stop();
  return { cold, definition: summarize(defs).median, references: summarize(refs).median };
}

async function compareServers(): Promise<void> {
  const tsserver = process.env.KEEL_BENCH_TSSERVER;
  const bundled = bundledTypeScript();
  const exe = bundled && nativeExecutable(bundled);
  if (!tsserver || !exe) {
    process.stdout.write(
      "\n(Set KEEL_BENCH_TSSERVER to a TypeScript 5/6 tsserver.js to compare typescript-language-server with the native server.)\n",
    );
    return;
  }
  const cli = join(
    dirname(createRequire(import.meta.url).resolve("typescript-language-server/package.json")),
    "lib",
    "cli.mjs",
  );
  const native = await serverOnly({
    command: exe,
    args: ["--lsp", "--stdio"],
    description: "native",
    installHint: "",
  });
  const tls = await serverOnly({
    command: process.execPath,
    args: [cli, "--stdio"],
    initializationOptions: { tsserver: { path: tsserver, useSyntaxServer: "never" } },
    description: "tls",
    installHint: "",
  });
  process.stdout.write("\nServers compared (no pipeline; ms):\n");
  printTable([
    { server: `TypeScript ${bundled?.version} native (tsc --lsp)`, ...native },
    { server: `typescript-language-server + ${tsserver}`, ...tls },
  ]);
}

const cold = summarize(await coldFirstQuery());
const samples = await warm();
const grepMedian = summarize(samples.Grep ?? []).median;
const rows = Object.entries(samples).map(([name, values]) => {
  const stats = summarize(values);
  return { measure: name, median: stats.median, p99: stats.p99, "vs Grep": ratio(stats.median, grepMedian) };
});
process.stdout.write(`\nLSP tool on Keel's source, ${RUNS} runs each (ms):\n`);
printTable([
  {
    measure: "cold first goToDefinition",
    median: cold.median,
    p99: cold.p99,
    "vs Grep": ratio(cold.median, grepMedian),
  },
  ...rows,
]);
const warmDefinition = summarize(samples.goToDefinition ?? []).median;
const warmReferences = summarize(samples.findReferences ?? []).median;
const verdict = Math.max(warmDefinition, warmReferences) < TARGET_MS ? "met" : "NOT met";
process.stdout.write(`Target: warm median under ${TARGET_MS} ms: ${verdict}.\n`);
await compareServers();
