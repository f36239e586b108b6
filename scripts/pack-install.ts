// Keel as people install it without a registry entry: `npm pack`, then the tarball installed globally into a
// temporary prefix (`keel` on PATH) and as a dependency of a fresh project (`"keel": "file:…tgz"` beside
// zod 4). Checks, printing PASS or FAIL each: `keel --version`, a decision from the installed CLI (the
// Bash grammar found inside the install), and the library's three entry points imported and used.
//
//   npm run build && npm run test:pack
//
// Dependencies come from the npm cache when they are there (--prefer-offline), else from the registry.
// Everything goes in one temporary folder, removed at the end (KEEL_PACK_KEEP=1 keeps it).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";

const REPO = join(import.meta.dirname, "..");
const VERSION = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;
// The installed `keel` starts with the first node on PATH: this one (Node >= 22).
const PATH = [dirname(process.execPath), process.env.PATH ?? ""].join(delimiter);

const checks: Array<{ name: string; ok: boolean }> = [];
function check(name: string, ok: boolean, detail: string): void {
  checks.push({ name, ok });
  process.stdout.write(
    `${ok ? "PASS" : "FAIL"}  ${name}\n      ${detail.replace(/\s+/g, " ").slice(0, 300)}\n`,
  );
}

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, env: { ...process.env, PATH }, encoding: "utf8" });
  return {
    code: result.status,
    out: `${result.stdout ?? ""}${result.stderr ?? ""}`,
    stdout: result.stdout ?? "",
  };
}

function npm(args: string[], cwd: string) {
  const result = run("npm", [...args, "--no-audit", "--no-fund", "--prefer-offline"], cwd);
  if (result.code !== 0) throw new Error(`npm ${args.join(" ")} failed:\n${result.out}`);
  return result;
}

const LIBRARY_USE = `
import { builtinTools, createToolUseContext, runToolUse } from "keel";
import { toAnthropicTools } from "keel/adapters";
import * as mcp from "keel/mcp";
const context = createToolUseContext({ tools: builtinTools(), cwd: process.cwd(), allow: ["Read"] });
let answer;
for await (const event of runToolUse(
  { type: "tool_use", id: "1", name: "Read", input: { file_path: process.cwd() + "/package.json" } },
  context,
)) if (event.type === "result") answer = event;
console.log(JSON.stringify({
  decision: answer.decision.behavior,
  read: String(answer.block.content).includes('"name":"app"'),
  adapters: (await toAnthropicTools(builtinTools())).length > 10,
  mcp: Object.keys(mcp).length > 0,
}));
`;

function main(): void {
  if (!existsSync(join(REPO, "dist", "cli-bundle"))) throw new Error("run `npm run build` first");
  const base = mkdtempSync(join(tmpdir(), "keel-pack-"));
  try {
    const packed = JSON.parse(
      npm(["pack", "--ignore-scripts", "--json", "--pack-destination", base], REPO).stdout,
    ) as Array<{ filename: string }>;
    const tarball = join(base, packed[0]!.filename);
    check("npm pack", existsSync(tarball), tarball);

    const prefix = join(base, "prefix");
    npm(["install", "--global", "--prefix", prefix, tarball], base);
    const keel = join(prefix, "bin", "keel");
    const version = run(keel, ["--version"], base);
    check(`npm i -g ./keel-${VERSION}.tgz: keel --version`, version.stdout.trim() === VERSION, version.out);
    const work = join(base, "work");
    mkdirSync(work);
    const decision = run(keel, ["check", "Bash", JSON.stringify({ command: "ls | wc -l" })], work);
    check(
      "the installed keel decides (its Bash grammar loads from the install)",
      decision.code === 0 && /^ALLOW: /.test(decision.stdout),
      decision.out,
    );

    const app = join(base, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", type: "module", private: true }));
    npm(["install", tarball, "zod@4"], app);
    const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    check(
      "a project depends on it as a tarball",
      manifest.dependencies.keel?.startsWith("file:") === true,
      JSON.stringify(manifest.dependencies),
    );
    writeFileSync(join(app, "use.mjs"), LIBRARY_USE);
    const used = run(process.execPath, ["use.mjs"], app);
    let result: Record<string, unknown> = {};
    try {
      result = JSON.parse(used.stdout) as Record<string, unknown>;
    } catch {}
    check(
      'import from "keel", "keel/adapters" and "keel/mcp"; a governed Read runs',
      result.decision === "allow" && result.read === true && result.adapters === true && result.mcp === true,
      used.out,
    );
  } finally {
    if (process.env.KEEL_PACK_KEEP) process.stdout.write(`kept ${base}\n`);
    else rmSync(base, { recursive: true, force: true });
  }
  const failed = checks.filter((entry) => !entry.ok).length;
  process.stdout.write(`\n${checks.length - failed} of ${checks.length} checks passed\n`);
  process.exitCode = failed === 0 ? 0 : 1;
}

main();
