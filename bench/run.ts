// `npm run bench`: runs every bench/*.bench.ts as its own process, one after another, and prints a summary.
// Each benchmark measures its own reference in the same run and prints ratios against it.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

const only = process.argv.slice(2);
const dir = import.meta.dirname;
const files = readdirSync(dir)
  .filter((name) => name.endsWith(".bench.ts"))
  .filter((name) => only.length === 0 || only.some((filter) => name.includes(filter)))
  .sort();

const summary: Array<{ name: string; status: string; seconds: number }> = [];
for (const file of files) {
  process.stdout.write(`\n=== ${file} ===\n`);
  const started = performance.now();
  const run = spawnSync(process.execPath, [join(dir, file)], { stdio: "inherit", env: process.env });
  const seconds = (performance.now() - started) / 1000;
  summary.push({
    name: file,
    status: run.status === 0 ? "ok" : `failed (${run.status ?? run.signal})`,
    seconds,
  });
}
process.stdout.write("\n=== summary ===\n");
for (const row of summary)
  process.stdout.write(`${row.name.padEnd(32)} ${row.status.padEnd(14)} ${row.seconds.toFixed(1)} s\n`);
process.exitCode = summary.every((row) => row.status === "ok") ? 0 : 1;
