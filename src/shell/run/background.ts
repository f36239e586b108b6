// Background tasks: a per-session registry of work that runs on after the call that started it returned
// (Bash commands, sub-agents). Output streams to a file that stays after the task (and the session) ends.

import { stat } from "node:fs/promises";
import { join } from "node:path";
import { randomBytes } from "../../tool/lazyCrypto.ts";
import { prepareResultsFolder } from "../../tool/resultsFolder.ts";
import { onSessionEnd } from "../../tool/sessionEnd.ts";
import { type CommandLauncher, type ShellExit, type ShellProcess, startShellCommand } from "./exec.ts";
import { interpretExitCode } from "./execSemantics.ts";
import { BASH_MAX_OUTPUT_CHARS, summarizeOutputFile } from "./output.ts";

export type BackgroundTaskStatus = "running" | "completed" | "failed" | "killed";
export type BackgroundTaskKind = "shell" | "agent";

export interface BackgroundTaskInfo {
  id: string;
  kind: BackgroundTaskKind;
  /** The shell command, or what a sub-agent was asked to do. */
  command: string;
  description?: string;
  cwd: string;
  outputPath: string;
  status: BackgroundTaskStatus;
  exitCode: number | null;
  /** Why the exit code is not an error (grep 1 = no matches), when it is one of those. */
  exitNote?: string;
  startedAt: number;
  endedAt?: number;
}

/** How the registry reaches a running task: stop it, and learn how it ended. */
export interface BackgroundTaskHandle {
  stop(): void;
  done: Promise<BackgroundTaskEnd>;
}

export interface BackgroundTaskEnd {
  status: Exclude<BackgroundTaskStatus, "running">;
  exitCode: number | null;
  exitNote?: string;
}

interface BackgroundTask {
  info: BackgroundTaskInfo;
  handle: BackgroundTaskHandle;
  /** Bytes of output already returned by readTaskOutput. */
  readOffset: number;
  ended: Promise<void>;
}

/** Tasks by session id, then by task id: TaskOutput/TaskStop reach them through the context's sessionId. */
const sessions = new Map<string, Map<string, BackgroundTask>>();
onSessionEnd((sessionId) => killAllBackgroundTasks(sessionId));

function tasksOf(sessionId: string): Map<string, BackgroundTask> {
  let tasks = sessions.get(sessionId);
  if (!tasks) {
    tasks = new Map();
    sessions.set(sessionId, tasks);
  }
  return tasks;
}

function shellEnd(command: string, exit: ShellExit): BackgroundTaskEnd {
  if (exit.interrupted) return { status: "killed", exitCode: exit.exitCode };
  const meaning = interpretExitCode(command, exit.exitCode);
  return {
    status: meaning.isError ? "failed" : "completed",
    exitCode: exit.exitCode,
    ...(meaning.note ? { exitNote: meaning.note } : {}),
  };
}

function settle(task: BackgroundTask, end: BackgroundTaskEnd): void {
  const info = task.info;
  info.endedAt = Date.now();
  info.exitCode = end.exitCode;
  info.status = end.status;
  if (end.exitNote) info.exitNote = end.exitNote;
}

export interface RegisterBackgroundOptions {
  kind: BackgroundTaskKind;
  /** An id the caller already uses for the work (a sub-agent's id); default: a new one. */
  id?: string;
  command: string;
  description?: string;
  cwd: string;
  /** Folder for the output file (the session's tool-results folder). */
  outputDir: string;
}

/**
 * Registers a task of any kind: `start` gets the task's id and output file and returns its handle.
 * Shell commands and sub-agents both come here, so TaskOutput and TaskStop reach either.
 */
export async function registerBackgroundTask(
  sessionId: string,
  options: RegisterBackgroundOptions,
  start: (id: string, outputPath: string) => Promise<BackgroundTaskHandle> | BackgroundTaskHandle,
): Promise<BackgroundTaskInfo> {
  const tasks = tasksOf(sessionId);
  const prefix = options.kind === "shell" ? "bash" : options.kind;
  let id = options.id && !tasks.has(options.id) ? options.id : "";
  while (id === "" || tasks.has(id)) id = `${prefix}_${randomBytes(4).toString("hex")}`;
  prepareResultsFolder(options.outputDir);
  const outputPath = join(options.outputDir, `${id}.log`);
  const handle = await start(id, outputPath);
  const info: BackgroundTaskInfo = {
    id,
    kind: options.kind,
    command: options.command,
    ...(options.description ? { description: options.description } : {}),
    cwd: options.cwd,
    outputPath,
    status: "running",
    exitCode: null,
    startedAt: Date.now(),
  };
  const task: BackgroundTask = { info, handle, readOffset: 0, ended: Promise.resolve() };
  task.ended = handle.done.then(
    (end) => settle(task, end),
    (error: unknown) => settle(task, { status: "failed", exitCode: null, exitNote: String(error) }),
  );
  tasks.set(id, task);
  return { ...info };
}

export interface StartBackgroundOptions {
  command: string;
  description?: string;
  cwd: string;
  /** Folder for the output file (the session's tool-results folder). */
  outputDir: string;
  launcher?: CommandLauncher;
}

/** Starts a command in the background and returns at once with its task id. */
export function startBackgroundTask(
  sessionId: string,
  options: StartBackgroundOptions,
): Promise<BackgroundTaskInfo> {
  return registerBackgroundTask(
    sessionId,
    {
      kind: "shell",
      command: options.command,
      ...(options.description ? { description: options.description } : {}),
      cwd: options.cwd,
      outputDir: options.outputDir,
    },
    async (_id, outputPath) => {
      const process: ShellProcess = await startShellCommand({
        command: options.command,
        cwd: options.cwd,
        outputPath,
        ...(options.launcher ? { launcher: options.launcher } : {}),
      });
      return {
        stop: () => process.kill("stop"),
        done: process.done.then((exit) => shellEnd(options.command, exit)),
      };
    },
  );
}

export function getBackgroundTask(sessionId: string, taskId: string): BackgroundTaskInfo | undefined {
  const task = sessions.get(sessionId)?.get(taskId);
  return task ? { ...task.info } : undefined;
}

/** A task's current info and a promise that settles when it ends, for waiting on its output (Monitor). */
export function watchBackgroundTask(
  sessionId: string,
  taskId: string,
): { info: () => BackgroundTaskInfo; ended: Promise<void> } | undefined {
  const task = sessions.get(sessionId)?.get(taskId);
  return task ? { info: () => ({ ...task.info }), ended: task.ended } : undefined;
}

export function listBackgroundTasks(sessionId: string): BackgroundTaskInfo[] {
  return [...(sessions.get(sessionId)?.values() ?? [])].map((task) => ({ ...task.info }));
}

export interface TaskOutputRead {
  task: BackgroundTaskInfo;
  /** Output written since the previous read, ANSI stripped and capped. */
  output: string;
  newBytes: number;
  truncated: boolean;
  /** True when a blocking read gave up waiting and the task is still running. */
  waitTimedOut: boolean;
}

export interface ReadTaskOutputOptions {
  /** Wait for the task to end (up to timeoutMs) before reading. */
  block: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
  maxChars?: number;
}

function waitFor(ended: Promise<void>, timeoutMs: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const finish = (value: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(value);
    };
    const onAbort = () => finish(false);
    const timer = setTimeout(() => finish(false), timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    ended.then(() => finish(true));
  });
}

/** New output of a task since the last read, optionally waiting for the task to end first. */
export async function readTaskOutput(
  sessionId: string,
  taskId: string,
  options: ReadTaskOutputOptions,
): Promise<TaskOutputRead | undefined> {
  const task = sessions.get(sessionId)?.get(taskId);
  if (!task) return undefined;
  let waitTimedOut = false;
  if (options.block && task.info.status === "running") {
    waitTimedOut = !(await waitFor(task.ended, options.timeoutMs, options.signal));
  }
  const start = task.readOffset;
  const end = await stat(task.info.outputPath).then(
    (stats) => stats.size,
    () => start,
  );
  task.readOffset = Math.max(start, end);
  const summary =
    end > start
      ? await summarizeOutputFile(task.info.outputPath, {
          maxChars: options.maxChars ?? BASH_MAX_OUTPUT_CHARS,
          range: { start, end },
          savedPath: task.info.outputPath,
        })
      : { text: "", totalBytes: 0, truncated: false };
  return {
    task: { ...task.info },
    output: summary.text,
    newBytes: summary.totalBytes,
    truncated: summary.truncated,
    waitTimedOut: waitTimedOut && task.info.status === "running",
  };
}

/** Ends a task (a shell task's whole process group); resolves when it is gone. */
export async function stopBackgroundTask(
  sessionId: string,
  taskId: string,
): Promise<BackgroundTaskInfo | undefined> {
  const task = sessions.get(sessionId)?.get(taskId);
  if (!task) return undefined;
  if (task.info.status === "running") task.handle.stop();
  await task.ended;
  return { ...task.info };
}

/** Ends every background task of a session (at session end). Output files remain. */
export async function killAllBackgroundTasks(sessionId: string): Promise<void> {
  const tasks = sessions.get(sessionId);
  if (!tasks) return;
  await Promise.all([...tasks.keys()].map((id) => stopBackgroundTask(sessionId, id)));
  sessions.delete(sessionId);
}
