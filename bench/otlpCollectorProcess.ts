// A local OTLP/HTTP collector in a process of its own, for benches that time whole `keel` processes with
// spawnSync (which would block a collector in the bench's own process). Prints its URL on the first
// line; on SIGTERM prints how many log records and metric points it received, then exits.
import { startHttpCollector } from "../src/telemetry/testing/otlpCollector.ts";

const collector = await startHttpCollector();
process.stdout.write(`${collector.url}\n`);
process.on("SIGTERM", async () => {
  process.stdout.write(
    `${JSON.stringify({ logs: collector.logs.length, points: collector.points.length })}\n`,
  );
  await collector.close();
  process.exit(0);
});
