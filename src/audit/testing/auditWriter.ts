// Test helper, run as a process of its own: appends `count` records to an audit log with a JsonlAuditSink,
// as one of several writers at once, pausing a millisecond after every `burst` records.
// Usage: auditWriter.ts <dir> <writer> <count> <burst> <maxBytes> <clockSpeed> <startMs>
// A clock speed above 1 runs the sinks' wall clock (segment names, ages) that many times faster, with the
// recheck interval shortened alike, so a test sees segments sealed and pruned within seconds.
import { setTimeout as sleep } from "node:timers/promises";
import { JsonlAuditSink } from "../jsonlSink.ts";
import { RECHECK_MS } from "../retention.ts";

const [
  dir = "",
  writer = "",
  countText = "0",
  burstText = "1",
  maxBytesText = "0",
  speedText = "1",
  startText = "0",
] = process.argv.slice(2);
const burst = Number(burstText);
const speed = Number(speedText);
const start = Number(startText);
const sink = new JsonlAuditSink({
  dir,
  env: {},
  retention: { maxBytes: Number(maxBytesText), maxAgeMs: 30 * 86_400_000 },
  recheckMs: RECHECK_MS / speed,
  now: () => start + (Date.now() - start) * speed,
});
const count = Number(countText);
for (let seq = 0; seq < count; seq++) {
  sink.record({
    time: new Date().toISOString(),
    sessionId: writer,
    toolUseId: String(seq),
    tool: "Bash",
    inputSummary: `{"command":"echo ${"x".repeat(200)}"}`,
    behavior: "allow",
    decidedBy: "test",
    hooks: [],
    durationMs: { total: 1, permission: 0, call: 1 },
    resultChars: 0,
    isError: false,
  });
  if (seq % burst === burst - 1) await sleep(1);
}
sink.close();
