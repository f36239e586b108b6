import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CommandProgress, runForegroundCommand } from "./execForeground.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "keel-fg-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const outputDir = () => join(dir, "tool-results");

describe("runForegroundCommand", () => {
  it("returns small output and keeps no file", async () => {
    const result = await runForegroundCommand({
      command: "echo hello",
      cwd: dir,
      timeoutMs: 10_000,
      outputDir: outputDir(),
    });
    expect(result.summary.text).toBe("hello\n");
    expect(result.outputPath).toBeUndefined();
    expect(readdirSync(outputDir())).toEqual([]);
  });

  it("keeps the whole output on disk when the model sees only part of it", async () => {
    const result = await runForegroundCommand({
      command: "seq 1 100000",
      cwd: dir,
      timeoutMs: 10_000,
      outputDir: outputDir(),
    });
    expect(result.summary.truncated).toBe(true);
    expect(result.summary.text.length).toBeLessThanOrEqual(30_000);
    expect(result.summary.text).toContain(result.outputPath);
    expect(result.outputPath && statSync(result.outputPath).size).toBe(588_895);
  });

  it("gives commands run back to back each an output of their own", async () => {
    const run = (command: string) =>
      runForegroundCommand({ command, cwd: dir, timeoutMs: 10_000, outputDir: outputDir() });
    // The first leaves a daemon holding its output; later output of the daemon is not the next command's.
    expect((await run("echo first; (sleep 0.3; echo late) &")).summary.text).toBe("first\n");
    expect((await run("echo second; sleep 0.6")).summary.text).toBe("second\n");
    const third = await run("seq 1 100000");
    expect(third.outputPath && statSync(third.outputPath).size).toBe(588_895);
    expect((await run("echo fourth")).summary.text).toBe("fourth\n");
    expect(readdirSync(outputDir())).toEqual([basename(third.outputPath ?? "")]);
  });

  it("keeps the whole output even when the output folder was removed while the command ran", async () => {
    const first = await runForegroundCommand({
      command: "true",
      cwd: dir,
      timeoutMs: 10_000,
      outputDir: outputDir(),
    });
    expect(first.exit.exitCode).toBe(0);
    const result = await runForegroundCommand({
      command: `rm -rf '${outputDir()}'; seq 1 100000`,
      cwd: dir,
      timeoutMs: 10_000,
      outputDir: outputDir(),
    });
    expect(result.outputPath && statSync(result.outputPath).size).toBe(588_895);
  });

  it("streams 200 MB of output to disk whole with bounded memory", async () => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    let result: Awaited<ReturnType<typeof runForegroundCommand>>;
    try {
      result = await runForegroundCommand({
        command: "head -c 200000000 /dev/zero | tr '\\0' a",
        cwd: dir,
        timeoutMs: 60_000,
        outputDir: outputDir(),
      });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(result.exit.exitCode).toBe(0);
    expect(result.outputPath).toBeDefined();
    expect(statSync(result.outputPath ?? "").size).toBe(200_000_000);
    expect(result.summary.totalBytes).toBe(200_000_000);
    expect(result.summary.text.length).toBeLessThanOrEqual(30_000);
    expect(result.summary.text).toMatch(/^a+\n\n\[\.\.\. output truncated: about 199,97\d,\d{3} bytes cut/);
    // 200 MB went through; memory grew by a small fraction of it.
    expect(peak - before).toBeLessThan(40 * 1024 * 1024);
  });

  it("reports the latest output lines while the command runs", async () => {
    const reports: CommandProgress[] = [];
    await runForegroundCommand({
      command: "echo first; echo second; sleep 1.5; echo third",
      cwd: dir,
      timeoutMs: 10_000,
      outputDir: outputDir(),
      progressAfterMs: 200,
      progressEveryMs: 200,
      onProgress: (progress) => reports.push(progress),
    });
    expect(reports.length).toBeGreaterThan(0);
    expect(reports[0]?.output).toBe("first\nsecond");
    expect(reports[0]?.totalBytes).toBe(13);
  });

  it("sends no progress for a command that ends before the first report", async () => {
    const reports: CommandProgress[] = [];
    await runForegroundCommand({
      command: "echo quick",
      cwd: dir,
      timeoutMs: 10_000,
      outputDir: outputDir(),
      onProgress: (progress) => reports.push(progress),
    });
    expect(reports).toEqual([]);
    expect(existsSync(outputDir())).toBe(true);
  });
});
