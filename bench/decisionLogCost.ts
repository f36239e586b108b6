// What recording one decision costs a process, telemetry off and on: openDecisionLog + record + close
// from the built dist/, in a fresh process (the first call: telemetry's modules load) and then in a
// loop (steady state, a flusher holding the lock as while one runs). Run by hook.bench.ts as
// `node bench/decisionLogCost.ts <home> <on|off> <endpoint>`; prints one JSON line.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const [home, mode, endpoint] = process.argv.slice(2) as [string, string, string];
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  KEEL_HOME: home,
  HOME: home,
  ...(mode === "on" ? { KEEL_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } : {}),
};
const dist = new URL("../dist/", import.meta.url);
const { openDecisionLog } = (await import(
  new URL("audit/decisionLog.js", dist).href
)) as typeof import("../src/audit/decisionLog.ts");
const { spoolRoot } = (await import(
  new URL("telemetry/spool.js", dist).href
)) as typeof import("../src/telemetry/spool.ts");
const record = (id: number) => ({
  time: new Date().toISOString(),
  sessionId: "bench",
  toolUseId: `toolu_${id}`,
  tool: "Bash",
  inputSummary: JSON.stringify({ command: "git status && git diff" }),
  behavior: "allow" as const,
  decidedBy: "the tool's own check (bash-analyzer)",
  decisionReason: { type: "tool" as const, reason: "read-only", check: "bash-analyzer" },
  hooks: [],
  durationMs: { total: 1, permission: 1, call: 0 },
  resultChars: 0,
  isError: false,
  mode: "default" as const,
});
async function once(id: number): Promise<number> {
  const started = performance.now();
  const log = await openDecisionLog({ env, surface: "hook", onError: () => {} });
  log.record(record(id));
  log.close();
  return performance.now() - started;
}
// A live "flusher" (this process) holds the lock, so no flusher process is started while timing.
if (mode === "on") {
  const { mkdirSync } = await import("node:fs");
  mkdirSync(spoolRoot(env), { recursive: true, mode: 0o700 });
  writeFileSync(join(spoolRoot(env), "flusher.lock"), String(process.pid));
}
const first = await once(0);
const times: number[] = [];
for (let i = 1; i <= 200; i++) times.push(await once(i));
times.sort((a, b) => a - b);
process.stdout.write(`${JSON.stringify({ first, median: times[100] })}\n`);
