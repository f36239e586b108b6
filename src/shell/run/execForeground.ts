// One command run to its end: output to a file in the results folder, progress while it runs, and
// a bounded summary when it is done. The file is kept only when the model cannot see it all; until
// then it has no name (where the system allows), so there is nothing to remove or to leave behind.
import { closeSync, fstatSync, openSync } from "node:fs";
import { join } from "node:path";
import { prepareResultsFolder, RESULT_FILE_MODE } from "../../tool/resultsFolder.ts";
import { uniqueName } from "../../tool/uniqueName.ts";
import { openAnonymousFile, saveAnonymousFile } from "./anonymousFile.ts";
import {
  type CommandLauncher,
  removeQuietly,
  type ShellExit,
  type ShellProcess,
  startShellCommand,
} from "./exec.ts";
import { BASH_MAX_OUTPUT_CHARS, type OutputSummary, readLatestLines, summarizeOpenFile } from "./output.ts";

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

function startProgress(outputFd: number, options: ForegroundOptions): () => void {
  const onProgress = options.onProgress;
  if (!onProgress) return () => {};
  const started = Date.now();
  let busy = false;
  let interval: NodeJS.Timeout | undefined;
  const report = async () => {
    if (busy) return;
    busy = true;
    try {
      const output = await readLatestLines(outputFd);
      onProgress({ output, elapsedMs: Date.now() - started, totalBytes: fstatSync(outputFd).size });
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

/** The command's output file: nameless where it can be (named only if kept), else named at once. */
interface OutputFile {
  fd: number;
  path: string;
  named: boolean;
}

/** A nameless output file per folder, opened while the previous command ran (off the next call's path). */
const spareOutputs = new Map<string, number>();
const MAX_SPARE_OUTPUTS = 16;

function openOutputFile(outputDir: string, path: string): OutputFile {
  const spare = spareOutputs.get(outputDir);
  if (spare !== undefined) {
    spareOutputs.delete(outputDir);
    return { fd: spare, path, named: false };
  }
  const fd = openAnonymousFile(outputDir);
  if (fd !== undefined) return { fd, path, named: false };
  return { fd: openSync(path, "w+", RESULT_FILE_MODE), path, named: true };
}

/** Opens the next command's output file once the event loop is free: while this command runs. */
function openSpareOutputSoon(outputDir: string): void {
  setImmediate(() => {
    if (spareOutputs.has(outputDir)) return;
    try {
      const fd = openAnonymousFile(outputDir);
      if (fd === undefined) return;
      if (spareOutputs.size >= MAX_SPARE_OUTPUTS) {
        const [oldestDir, oldest] = spareOutputs.entries().next().value as [string, number];
        spareOutputs.delete(oldestDir);
        closeSync(oldest);
      }
      spareOutputs.set(outputDir, fd);
    } catch {
      // Only an optimization: the next command opens its own.
    }
  });
}

/** Names a nameless output file; the folder is made again if it was removed while the command ran. */
function saveOutputFile(output: OutputFile, outputDir: string): void {
  try {
    saveAnonymousFile(output.fd, output.path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    prepareResultsFolder(outputDir, { again: true });
    saveAnonymousFile(output.fd, output.path);
  }
}

/** Gives up the output file: closed, and its name (if it has one) removed. */
function discardOutputFile(output: OutputFile): void {
  closeSync(output.fd);
  if (output.named) removeQuietly(output.path);
}

/**
 * Opens the output file (written by the command, read back by us through the same descriptor) and
 * starts the command. The caller closes the file; if starting fails, it is discarded here.
 */
async function startInOutputDir(
  options: ForegroundOptions,
  outputPath: string,
): Promise<{ shell: ShellProcess; output: OutputFile }> {
  const start = async () => {
    const output = openOutputFile(options.outputDir, outputPath);
    try {
      const shell = await startCommand(output.fd);
      if (!output.named) openSpareOutputSoon(options.outputDir);
      return { shell, output };
    } catch (error) {
      discardOutputFile(output);
      throw error;
    }
  };
  const startCommand = (outputFd: number) =>
    startShellCommand({
      command: options.command,
      cwd: options.cwd,
      outputPath,
      outputFd,
      timeoutMs: options.timeoutMs,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.launcher ? { launcher: options.launcher } : {}),
      ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
    });
  // The session's private results folder (made, and checked, once per process).
  prepareResultsFolder(options.outputDir);
  try {
    return await start();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    // The folder (or the working directory) went away: make the folder again and let a second try say which.
    prepareResultsFolder(options.outputDir, { again: true });
    return start();
  }
}

export async function runForegroundCommand(options: ForegroundOptions): Promise<ForegroundResult> {
  const outputPath = join(options.outputDir, `bash-${uniqueName()}.log`);
  const { shell, output } = await startInOutputDir(options, outputPath);
  const maxChars = options.maxChars ?? BASH_MAX_OUTPUT_CHARS;
  let kept = false;
  try {
    const stopProgress = startProgress(output.fd, options);
    let exit: ShellExit;
    try {
      exit = await shell.done;
    } finally {
      stopProgress();
    }
    const summary = summarizeOpenFile(output.fd, { maxChars, savedPath: outputPath });
    if (!summary.truncated && !summary.binary) return { exit, summary };
    try {
      if (!output.named) saveOutputFile(output, options.outputDir);
      kept = true;
      return { exit, summary, outputPath };
    } catch (error) {
      // The model still gets the summary, and is told the whole output could not be kept.
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      const unsaved = summarizeOpenFile(output.fd, { maxChars: maxChars - 200 });
      const text = `${unsaved.text}\n[The whole output could not be saved to ${outputPath}: ${reason}]`;
      return { exit, summary: { ...unsaved, text } };
    }
  } finally {
    // A named file stays only when it is kept; a nameless one is gone with its descriptor.
    closeSync(output.fd);
    if (output.named && !kept) removeQuietly(outputPath);
  }
}
