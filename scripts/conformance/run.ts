// `npm run test:conformance`: the official MCP conformance suite against Keel, both ways.
//   server: every server scenario against `keel mcp --http 127.0.0.1:0 --no-auth` (from the sources);
//   client: every client scenario (initialize, tools_call, sse-retry, elicitation, auth...) against
//           Keel's MCP client, driven by scripts/conformance/keel-client.ts.
// Failures listed in expected-failures.yml (with the reason for each) are expected; any other failure,
// or a listed scenario that passes, fails the run. Client scenarios run four at a time; sse-retry, which
// times the client's reconnect to within 200 ms, runs alone; a failing client scenario is run once more
// (a busy CI machine can miss the suite's timings) and the retry is reported.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const REPO = new URL("../../", import.meta.url).pathname;
const SUITE = join(REPO, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const EXPECTED = join(REPO, "scripts/conformance/expected-failures.yml");
const CLIENT = join(REPO, "scripts/conformance/keel-client.ts");
const LOOPBACK_ONLY = join(REPO, "scripts/conformance/loopbackOnly.ts");
const TIMING_SENSITIVE = new Set(["sse-retry"]);
const CONCURRENCY = 4;
const work = mkdtempSync(join(tmpdir(), "keel-conformance-run-"));

interface Run {
  code: number;
  output: string;
}

function suite(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    // The suite's own test servers bind 127.0.0.1, not every interface.
    const child = spawn(process.execPath, ["--import", LOOPBACK_ONLY, SUITE, ...args], {
      cwd: work,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString("utf8");
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Checks passed and failed in a run's output: the server's "Total:" line, or one client scenario's. */
function checks(output: string): { passed: number; failed: number } {
  const total = /Total: (\d+) passed, (\d+) failed/.exec(output);
  if (total) return { passed: Number(total[1]), failed: Number(total[2]) };
  const one = /Passed: (\d+)\/\d+, (\d+) failed/.exec(output);
  return { passed: Number(one?.[1] ?? 0), failed: Number(one?.[2] ?? 0) };
}

async function clientScenarios(): Promise<string[]> {
  const { output } = await suite(["list", "--client"]);
  return [...output.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]!);
}

async function startKeel(): Promise<{ child: ChildProcess; url: string }> {
  const home = join(work, "home");
  const project = join(work, "project");
  mkdirSync(home);
  mkdirSync(project);
  const child = spawn(
    process.execPath,
    [join(REPO, "src/cli/mcpEntry.ts"), "--cwd", project, "--http", "127.0.0.1:0", "--no-auth"],
    {
      env: { ...process.env, KEEL_HOME: home, KEEL_MANAGED_SETTINGS: join(work, "none.json") },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`keel mcp did not start:\n${stderr}`)), 30_000);
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const found = /serving \d+ tools at (\S+)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once("exit", () => reject(new Error(`keel mcp exited:\n${stderr}`)));
  });
  return { child, url };
}

async function runServer(): Promise<{ ok: boolean; passed: number; failed: number }> {
  const keel = await startKeel();
  try {
    const run = await suite([
      "server",
      ...["--url", keel.url, "--suite", "all", "--expected-failures", EXPECTED, "-o", join(work, "server")],
    ]);
    const lines = run.output.split("\n");
    const start = lines.findIndex((line) => line.includes("=== SUMMARY ==="));
    process.stdout.write(
      `--- server scenarios against keel mcp --http ---\n${lines.slice(start).join("\n").trim()}\n`,
    );
    return { ok: run.code === 0, ...checks(run.output) };
  } finally {
    keel.child.kill();
  }
}

async function runClientScenario(scenario: string): Promise<{ ok: boolean; passed: number; failed: number }> {
  const args = [
    "client",
    ...["--command", `"${process.execPath}" "${CLIENT}"`, "--scenario", scenario, "--timeout", "60000"],
    ...["--expected-failures", EXPECTED, "-o", join(work, "client")],
  ];
  let run = await suite(args);
  let note = "";
  if (run.code !== 0) {
    run = await suite(args);
    note = run.code === 0 ? " (passed on the second run)" : " (failed twice)";
  }
  const result = { ok: run.code === 0, ...checks(run.output) };
  const expected = /Expected failures \(in baseline\)/.test(run.output) ? ", expected to fail" : "";
  process.stdout.write(
    `${result.ok ? "ok  " : "FAIL"} ${scenario}: ${result.passed} checks passed, ${result.failed} failed${expected}${note}\n`,
  );
  if (!result.ok) process.stdout.write(`${run.output.split("\n").slice(-30).join("\n")}\n`);
  return result;
}

async function runClient(): Promise<{ ok: boolean; passed: number; failed: number; scenarios: number }> {
  process.stdout.write("\n--- client scenarios against Keel's MCP client ---\n");
  const scenarios = await clientScenarios();
  const parallel = scenarios.filter((name) => !TIMING_SENSITIVE.has(name));
  const results: { ok: boolean; passed: number; failed: number }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < parallel.length) results.push(await runClientScenario(parallel[next++]!));
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  for (const name of scenarios.filter((name) => TIMING_SENSITIVE.has(name)))
    results.push(await runClientScenario(name));
  return {
    ok: results.every((result) => result.ok),
    passed: results.reduce((sum, result) => sum + result.passed, 0),
    failed: results.reduce((sum, result) => sum + result.failed, 0),
    scenarios: scenarios.length,
  };
}

const started = Date.now();
const server = await runServer();
const client = await runClient();
process.stdout.write(
  `\nconformance: server ${server.passed} checks passed, ${server.failed} failed; ` +
    `client (${client.scenarios} scenarios) ${client.passed} checks passed, ${client.failed} failed; ` +
    `failures outside ${EXPECTED.slice(REPO.length)}: ${server.ok && client.ok ? "none" : "SEE ABOVE"} ` +
    `(${Math.round((Date.now() - started) / 1000)} s${server.ok && client.ok ? "" : `; results kept in ${work}`})\n`,
);
// The suite's results are kept to look into only when something failed.
if (server.ok && client.ok) rmSync(work, { recursive: true, force: true });
process.exit(server.ok && client.ok ? 0 : 1);
