// Test support: a real redis-server (the Debian package) on 127.0.0.1, a free port and a temp folder of
// its own, persistence off; stopped and its folder removed by `stop()`.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Why the tests that need Redis cannot run here, or undefined when redis-server is installed. */
export function redisServerMissing(): string | undefined {
  const found = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  return found.status === 0
    ? undefined
    : "redis-server is not installed (Debian: apt install redis-server; .ci/run installs it)";
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function waitReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("Ready to accept connections")) {
        child.stdout?.off("data", onData);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output.slice(-500)}`)));
  });
}

export async function startRedis(): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), "keel-redis-"));
  let lastError: unknown;
  // A port found free may be taken before redis binds it: try another.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      await waitReady(child);
      child.removeAllListeners("exit");
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        stop: async () => {
          if (child.exitCode === null) {
            const exited = new Promise((resolve) => child.once("exit", resolve));
            child.kill("SIGTERM");
            await exited;
          }
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      lastError = error;
      child.kill("SIGKILL");
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}
