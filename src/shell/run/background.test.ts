import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isRunning } from "../../tool/testing/processes.ts";
import { initBashParser } from "../analyze/grammar/parse.ts";
import {
  getBackgroundTask,
  killAllBackgroundTasks,
  listBackgroundTasks,
  readTaskOutput,
  startBackgroundTask,
  stopBackgroundTask,
} from "./background.ts";

let dir: string;
let sessionId: string;

beforeAll(async () => {
  await initBashParser();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "keel-bg-"));
  sessionId = randomUUID();
});
afterEach(async () => {
  await killAllBackgroundTasks(sessionId);
  await rm(dir, { recursive: true, force: true });
});

const start = (command: string, session = sessionId) =>
  startBackgroundTask(session, { command, cwd: dir, outputDir: join(dir, "results") });

async function waitForFile(path: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const text = existsSync(path) ? readFileSync(path, "utf8").trim() : "";
    if (text) return text;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${path} was never written`);
}

describe("background tasks", () => {
  it("returns at once with a running task, then a blocking read gets its output and exit", async () => {
    const task = await start("echo started; sleep 0.5; echo finished");
    expect(task.status).toBe("running");
    expect(task.id).toMatch(/^bash_[0-9a-f]{8}$/);

    const read = await readTaskOutput(sessionId, task.id, { block: true, timeoutMs: 10_000 });
    expect(read?.output).toBe("started\nfinished\n");
    expect(read?.task.status).toBe("completed");
    expect(read?.task.exitCode).toBe(0);
    expect(read?.waitTimedOut).toBe(false);
  });

  it("a non-blocking read returns only what is new since the last read", async () => {
    const marker = join(dir, "go");
    const task = await start(`echo one; while [ ! -e ${marker} ]; do sleep 0.05; done; echo two`);
    let first = await readTaskOutput(sessionId, task.id, { block: false, timeoutMs: 0 });
    for (let i = 0; i < 100 && first?.output === ""; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      first = await readTaskOutput(sessionId, task.id, { block: false, timeoutMs: 0 });
    }
    expect(first?.output).toBe("one\n");
    expect(first?.task.status).toBe("running");

    await writeFile(marker, "");
    const second = await readTaskOutput(sessionId, task.id, { block: true, timeoutMs: 10_000 });
    expect(second?.output).toBe("two\n");
    expect(second?.task.status).toBe("completed");

    const third = await readTaskOutput(sessionId, task.id, { block: false, timeoutMs: 0 });
    expect(third?.output).toBe("");
    expect(third?.newBytes).toBe(0);
  });

  it("a blocking read that times out says the task is still running", async () => {
    const task = await start("sleep 30");
    const read = await readTaskOutput(sessionId, task.id, { block: true, timeoutMs: 100 });
    expect(read?.waitTimedOut).toBe(true);
    expect(read?.task.status).toBe("running");
  });

  it("a blocking read ends early when the caller aborts", async () => {
    const task = await start("sleep 30");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const read = await readTaskOutput(sessionId, task.id, {
      block: true,
      timeoutMs: 20_000,
      signal: controller.signal,
    });
    expect(read?.task.status).toBe("running");
  });

  it("records failures with their exit code, and grep's 1 as an answer", async () => {
    const failing = await start("echo oops >&2; exit 3");
    const grep = await start("echo abc | grep xyz");
    const failed = await readTaskOutput(sessionId, failing.id, { block: true, timeoutMs: 10_000 });
    const noMatch = await readTaskOutput(sessionId, grep.id, { block: true, timeoutMs: 10_000 });
    expect(failed?.task).toMatchObject({ status: "failed", exitCode: 3 });
    expect(failed?.output).toBe("oops\n");
    expect(noMatch?.task).toMatchObject({ status: "completed", exitCode: 1, exitNote: "No matches found" });
  });

  it("stop kills the task's whole group and keeps its output file", async () => {
    const pidFile = join(dir, "grandchild.pid");
    const task = await start(`echo hello; (sleep 60 & echo $! > ${pidFile}; wait) & wait`);
    const grandchild = Number(await waitForFile(pidFile));
    expect(isRunning(grandchild)).toBe(true);

    const stopped = await stopBackgroundTask(sessionId, task.id);
    expect(stopped?.status).toBe("killed");
    expect(isRunning(grandchild)).toBe(false);
    expect(await readFile(task.outputPath, "utf8")).toBe("hello\n");
    expect(getBackgroundTask(sessionId, task.id)?.status).toBe("killed");
  });

  it("session end kills every task of that session only; output files remain", async () => {
    const other = randomUUID();
    const a = await start("echo a; sleep 60");
    const b = await start("echo b; sleep 60");
    const elsewhere = await start("sleep 60", other);
    await killAllBackgroundTasks(sessionId);
    expect(listBackgroundTasks(sessionId)).toEqual([]);
    expect(existsSync(a.outputPath)).toBe(true);
    expect(existsSync(b.outputPath)).toBe(true);
    expect(getBackgroundTask(other, elsewhere.id)?.status).toBe("running");
    await killAllBackgroundTasks(other);
  });

  it("keeps tasks apart by session", async () => {
    const task = await start("true");
    expect(getBackgroundTask(randomUUID(), task.id)).toBeUndefined();
    expect(await readTaskOutput(randomUUID(), task.id, { block: false, timeoutMs: 0 })).toBeUndefined();
  });
});
