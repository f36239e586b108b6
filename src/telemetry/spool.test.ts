// The spool under concurrency, with real processes: writers in several processes while flushes send
// and prune; every event reaches the collector exactly as often as it was written, none is lost.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { flushTelemetrySpool } from "./flusher.ts";
import { destinationKey, MAX_EVENTS, readSpool, spoolCount, spoolEvent } from "./spool.ts";
import { type OtlpCollector, startHttpCollector } from "./testing/otlpCollector.ts";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const event = (id: string) => ({
  v: 1 as const,
  time: new Date().toISOString(),
  attributes: { tool_use_id: id },
  counter: { tool_name: "Bash", decision: "accept", source: "config", agent: "keel" },
});

/** A process that spools `count` events, one after another. */
function writer(
  root: string,
  destination: Record<string, string>,
  name: string,
  count: number,
): Promise<number> {
  const script = join(root, "..", `${name}.ts`);
  writeFileSync(
    script,
    `import { spoolEvent } from ${JSON.stringify(join(import.meta.dirname, "spool.ts"))};
for (let i = 0; i < ${count}; i++)
  spoolEvent(${JSON.stringify(root)}, ${JSON.stringify(destination)}, { v: 1, time: new Date().toISOString(), attributes: { tool_use_id: "${name}-" + i }, counter: { tool_name: "Bash", decision: "accept", source: "config", agent: "keel" } });
`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { stdio: ["ignore", "ignore", "inherit"] });
    child.on("error", reject);
    child.on("close", (code) => resolve(code ?? -1));
  });
}

describe("the telemetry spool", () => {
  it("loses nothing while writers in other processes race flushes that send and prune", async () => {
    const collector: OtlpCollector = await startHttpCollector();
    cleanups.push(() => collector.close());
    const base = mkdtempSync(join(tmpdir(), "keel-spool-"));
    cleanups.push(() => rmSync(base, { recursive: true, force: true }));
    const root = join(base, "telemetry");
    const destination = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_METRICS_EXPORTER: "none" };
    const writers = Promise.all(["a", "b", "c"].map((name) => writer(root, destination, name, 40)));
    let done = false;
    void writers.then(() => {
      done = true;
    });
    // Flushes run (each ending with a prune) while the writers write. A turn of the event loop between
    // them: a flush that finds nothing may finish without waiting on anything, and a loop of those alone
    // would never let the writers' exits be seen.
    while (!done) {
      await flushTelemetrySpool(root);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await writers).toEqual([0, 0, 0]);
    await flushTelemetrySpool(root);
    expect(spoolCount(root).events).toBe(0);
    const ids = collector.logs.map((log) => log.attributes.tool_use_id).sort();
    expect(ids).toHaveLength(120);
    expect(new Set(ids).size).toBe(120);
  }, 60_000);

  it("a flush keeps at most MAX_EVENTS per destination, dropping the oldest", async () => {
    const base = mkdtempSync(join(tmpdir(), "keel-spool-"));
    cleanups.push(() => rmSync(base, { recursive: true, force: true }));
    const root = join(base, "telemetry");
    const destination = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" };
    for (let i = 0; i < MAX_EVENTS + 3; i++) spoolEvent(root, destination, event(`e${i}`));
    expect(spoolCount(root).events).toBe(MAX_EVENTS + 3);
    const [batch] = readSpool(root, 1);
    expect(batch?.events[0]?.attributes.tool_use_id).toBe("e3");
    expect(spoolCount(root)).toEqual({ events: MAX_EVENTS, destinations: 1 });
    expect(destinationKey(destination)).toMatch(/^[0-9a-f]{16}$/);
  });
});
