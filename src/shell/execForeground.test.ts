import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
