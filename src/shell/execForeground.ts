// One command run to its end: output to a file in the results folder, progress while it runs, and
// a bounded summary when it is done. The file is kept only when the model cannot see it all.
import { mkdirSync, unlinkSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { uniqueName } from "../tool/uniqueName.ts";
import { type CommandLauncher, type ShellExit, type ShellProcess, startShellCommand } from "./exec.ts";
import {
  BASH_MAX_OUTPUT_CHARS,
  type OutputSummary,
  readLatestLines,
  summarizeOutputFileSync,
} from "./output.ts";

export interface CommandProgress {
  /** The latest lines of output, ANSI stripped. */
  output: string;
  elapsedMs: number;
  totalBytes: number;
}

export interface ForegroundOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  /** Where the output file goes (the session's tool-results folder). */
  outputDir: string;
  signal?: AbortSignal;
  launcher?: CommandLauncher;
  maxChars?: number;
  onProgress?: (progress: CommandProgress) => void;
  /** First progress report after this long, then every `progressEveryMs`. */
  progressAfterMs?: number;
  progressEveryMs?: number;
  killGraceMs?: number;
}

export interface ForegroundResult {
  exit: ShellExit;
  summary: OutputSummary;
  /** The full output on disk, present when the summary is not all of it. */
  outputPath?: string;
}

function startProgress(outputPath: string, options: ForegroundOptions): () => void {
  const onProgress = options.onProgress;
  if (!onProgress) return () => {};
  const started = Date.now();
  let busy = false;
  let interval: NodeJS.Timeout | undefined;
  const report = async () => {
    if (busy) return;
    busy = true;
    try {
      const [output, size] = await Promise.all([
        readLatestLines(outputPath),
        stat(outputPath).then(
          (stats) => stats.size,
          () => 0,
        ),
      ]);
      onProgress({ output, elapsedMs: Date.now() - started, totalBytes: size });
    } catch {
      // A progress report is best effort; the command goes on.
    } finally {
      busy = false;
    }
  };
  const first = setTimeout(() => {
    void report();
    interval = setInterval(() => void report(), options.progressEveryMs ?? 1_000);
  }, options.progressAfterMs ?? 2_000);
  return () => {
    clearTimeout(first);
    if (interval) clearInterval(interval);
  };
}

/** Output folders already made by this process: made once, and again only if removed since. */
const madeDirs = new Set<string>();

async function startInOutputDir(options: ForegroundOptions, outputPath: string): Promise<ShellProcess> {
  const start = () =>
    startShellCommand({
      command: options.command,
      cwd: options.cwd,
      outputPath,
      timeoutMs: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.launcher ? { launcher: options.launcher } : {}),
      ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
    });
  if (!madeDirs.has(options.outputDir)) {
    mkdirSync(options.outputDir, { recursive: true });
    madeDirs.add(options.outputDir);
    return start();
  }
  try {
    return await start();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    // The folder (or the working directory) went away: make the folder again and let a second try say which.
    mkdirSync(options.outputDir, { recursive: true });
    return start();
  }
}

export async function runForegroundCommand(options: ForegroundOptions): Promise<ForegroundResult> {
  const outputPath = join(options.outputDir, `bash-${uniqueName()}.log`);
  const shell = await startInOutputDir(options, outputPath);
  const stopProgress = startProgress(outputPath, options);
  let exit: ShellExit;
  try {
    exit = await shell.done;
  } finally {
    stopProgress();
  }
  const summary = summarizeOutputFileSync(outputPath, {
    maxChars: options.maxChars ?? BASH_MAX_OUTPUT_CHARS,
    savedPath: outputPath,
  });
  if (summary.truncated || summary.binary) return { exit, summary, outputPath };
  try {
    unlinkSync(outputPath);
  } catch {}
  return { exit, summary };
}
