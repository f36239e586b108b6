// Scheduled prompts in a whole session, on a clock the test moves: the model schedules a cron job and a
// wakeup through the governed tools; each fires when the clock says so, waits until the session is
// idle, and runs under the permissions in force when it fires (here plan mode, set after it was made).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, expect, it } from "vitest";
import { until } from "../pipeline/testing/tools.ts";
import { loadSettings } from "../settings/load.ts";
import { updatePermissionContext } from "../tool/context.ts";
import { builtinTools } from "../tools/builtinTools.ts";
import { ManualClock } from "../tools/schedule-shared/clock.ts";
import { createAgentSession } from "./createAgent.ts";
import { runPrintMode } from "./printMode.ts";
import { startAnthropicServer } from "./testing/anthropicServer.ts";
import { TEST_KEY } from "./testing/harness.ts";
import { type ScriptTurn, text, toolUse } from "./testing/script.ts";
import type { ScriptedServer } from "./testing/server.ts";

const folders: string[] = [];
let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function collector() {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return {
    stream,
    text: () => text,
    results: () => text.split("\n").filter((line) => line.includes('"type":"result"')),
  };
}

it("a cron job and a wakeup fire on the test's clock, once idle, under the permissions of that moment", async () => {
  const root = mkdtempSync(join(tmpdir(), "keel-scheduled-"));
  folders.push(root);
  const project = join(root, "project");
  const home = join(root, "home");
  const runtime = join(root, "runtime");
  mkdirSync(project);
  mkdirSync(home);
  mkdirSync(runtime, { mode: 0o700 });
  const env = {
    ...process.env,
    HOME: home,
    KEEL_HOME: home,
    XDG_RUNTIME_DIR: runtime,
    KEEL_MANAGED_SETTINGS: join(root, "none.json"),
    ANTHROPIC_API_KEY: TEST_KEY,
  };
  const report = join(project, "report.md");
  const turns: ScriptTurn[] = [
    {
      blocks: [
        toolUse("CronCreate", { cron: "*/5 * * * *", prompt: "CRON: write the report", recurring: false }),
        toolUse("ScheduleWakeup", {
          delaySeconds: 10,
          reason: "the build takes a minute",
          prompt: "WAKE: check the build",
        }),
      ],
    },
    { blocks: [text("scheduled")] },
    { blocks: [text("the build is fine")] },
    { blocks: [toolUse("Write", { file_path: report, content: "report\n" })] },
    { blocks: [text("could not write the report")] },
  ];
  server = await startAnthropicServer({ apiKey: TEST_KEY, script: (_request, index) => turns[index]! });
  // 10:03:30 local time: the wakeup (clamped to 60 s) comes at 10:04:30, the cron job at 10:05.
  const clock = new ManualClock(new Date(2026, 2, 2, 10, 3, 30).getTime());
  const session = await createAgentSession({
    settings: loadSettings({ cwd: project, cli: { permissionMode: "acceptEdits" }, env }),
    tools: builtinTools(),
    services: {},
    flags: { provider: "anthropic", baseUrl: server.url, model: "claude-test" },
    interactive: false,
    env,
    clock,
  });
  let endInput: () => void = () => {};
  const inputEnds = new Promise<void>((resolve) => {
    endInput = resolve;
  });
  async function* prompts() {
    yield "schedule the checks";
    await inputEnds;
  }
  const stdout = collector();
  const stderr = collector();
  const running = runPrintMode(session, prompts(), {
    format: "stream-json",
    verbose: false,
    partial: false,
    stdout: stdout.stream,
    stderr: stderr.stream,
  });

  await until(() => stdout.results().length === 1, "the first prompt");
  expect(JSON.stringify(server.requests[1]?.body.messages)).toContain("Wakeup set for");
  clock.advance(59_000);
  expect(server.requests).toHaveLength(2);
  clock.advance(1_000);
  await until(() => stdout.results().length === 2, "the wakeup's prompt");
  expect(JSON.stringify(server.requests[2]?.body.messages)).toContain("WAKE: check the build");
  expect(stderr.text()).toContain("keel: Wakeup (ScheduleWakeup): the build takes a minute");

  // The person switches to plan mode after the job was made: the job runs under plan mode.
  session.agent.context.setAppState((state) => ({
    ...state,
    toolPermissionContext: updatePermissionContext(state.toolPermissionContext, { mode: "plan" }),
  }));
  clock.advance(30_000);
  await until(() => stdout.results().length === 3, "the cron job's prompt");
  const fired = JSON.stringify(server.requests[3]?.body.messages);
  expect(fired).toContain("CRON: write the report");
  expect(fired).toContain("It was a one-shot job and is now deleted.");
  expect(JSON.stringify(server.requests[4]?.body.messages)).toContain(
    "plan mode allows read-only tools only",
  );
  expect(existsSync(report)).toBe(false);

  endInput();
  const result = await running;
  expect(result.outcome.reason).toBe("completed");
  expect(clock.pendingTimers).toBe(0);
}, 60_000);
