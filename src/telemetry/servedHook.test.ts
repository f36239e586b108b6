// `keel hook` answered by the decision server, as agents meet it (bin/keel.js over the built dist/): the
// server records the decision and sends it from its own process, with no flusher process for it.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listServers, type ServerStatus, stopServers, waitForServer } from "../cli/decisionServer/control.ts";
import { runScript } from "../cli/testing/keelProcess.ts";
import { runningFlusher } from "./flusher.ts";
import { spoolCount, spoolRoot } from "./spool.ts";
import { eventually, type OtlpCollector, startHttpCollector } from "./testing/otlpCollector.ts";

const repo = join(import.meta.dirname, "../..");
const LAUNCHER = join(repo, "bin/keel.js");

let base: string;
let project: string;
let env: NodeJS.ProcessEnv;
let collector: OtlpCollector;

beforeAll(async () => {
  if (!existsSync(join(repo, "dist/cli/decisionServer/client.js")))
    throw new Error("dist/ is not built: run `npm run build` (npm install does it) before these tests");
  base = realpathSync(mkdtempSync(join(tmpdir(), "keel-served-telemetry-")));
  project = join(base, "project");
  mkdirSync(project);
  mkdirSync(join(base, "home"));
  mkdirSync(join(base, "run"), { mode: 0o700 });
  collector = await startHttpCollector();
  env = {
    PATH: process.env.PATH,
    HOME: join(base, "home"),
    KEEL_HOME: join(base, "home"),
    KEEL_MANAGED_SETTINGS: join(base, "none.json"),
    XDG_RUNTIME_DIR: join(base, "run"),
    KEEL_ENABLE_TELEMETRY: "1",
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    KEEL_TELEMETRY_FLUSHER_IDLE_MS: "300",
  };
});

afterAll(async () => {
  await stopServers(env);
  await collector.close();
  const root = spoolRoot(env);
  await eventually(() => runningFlusher(root) === undefined, 10_000).catch(() => {});
  rmSync(base, { recursive: true, force: true });
});

function hook(id: string) {
  const event = JSON.stringify({
    session_id: "served-session",
    transcript_path: join(base, "transcript.jsonl"),
    cwd: project,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_use_id: id,
  });
  return runScript(LAUNCHER, ["hook", "claude-code"], { cwd: project, env, stdin: event });
}

describe("keel hook served by the decision server, telemetry on", () => {
  it("the server's decisions reach the collector from the server itself", async () => {
    // The first call decides in its own process (its flusher sends it) and starts the server.
    expect((await hook("toolu_first")).code).toBe(0);
    await waitForServer(env);
    await eventually(() => collector.logs.length === 1);
    await eventually(() => runningFlusher(spoolRoot(env)) === undefined, 10_000);

    // A client whose server is slow to take the call (a loaded machine: ACCEPT_TIMEOUT_MS) decides in
    // its own process, as it should; the server's own sending is shown on a call it did serve.
    let served: Awaited<ReturnType<typeof hook>> | undefined;
    let server: ServerStatus | undefined;
    let servedId = "";
    for (let attempt = 0; attempt < 3 && !server; attempt++) {
      const before = (await waitForServer(env)).requests;
      servedId = `toolu_served${attempt}`;
      served = await hook(servedId);
      const [after] = await listServers(env);
      if (after && after.requests > before) server = after;
      else await eventually(() => runningFlusher(spoolRoot(env)) === undefined, 10_000);
    }
    expect(served?.code).toBe(0);
    expect(served?.stdout).toContain('"permissionDecision":"allow"');
    expect(server).toBeDefined();
    // Sent by the server itself: whoever holds the sender's lock meanwhile is the server.
    const holders = new Set<number>();
    await eventually(() => {
      const holder = runningFlusher(spoolRoot(env));
      if (holder !== undefined) holders.add(holder);
      return (
        collector.logs.some((log) => log.attributes.tool_use_id === servedId) &&
        spoolCount(spoolRoot(env)).events === 0
      );
    });
    expect([...holders].filter((pid) => pid !== server?.pid)).toEqual([]);
    expect(collector.logs.find((log) => log.attributes.tool_use_id === servedId)?.attributes).toMatchObject({
      surface: "hook",
    });
  });
});
