// Running one shell command: bash with stdin closed, in its own process group, output written
// straight to a file (so any output size costs no memory and a daemon holding the output open never
// blocks us), the final cwd reported on fd 3, the whole group killed on timeout, abort or stop.
// The few file operations around a command are synchronous: each is one system call on a tiny file,
// where a trip through libuv's thread pool costs more than the call itself.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathWithRipgrep } from "./bundledRipgrep.ts";

export type InterruptReason = "timeout" | "abort" | "stop";

/** How the command line is turned into a process: plain bash, or bash inside an OS sandbox. */
export interface CommandLauncher {
  /** argv and environment that run `script` with bash. */
  prepare(script: string, cwd: string): Promise<{ argv: string[]; env: NodeJS.ProcessEnv }>;
  /** Called once the process has exited. */
  release?(): void;
}

export interface ShellCommandOptions {
  command: string;
  cwd: string;
  /** File that receives stdout and stderr, interleaved as written. Created or truncated. */
  outputPath: string;
  /** No timeout when absent (background tasks). */
  timeoutMs?: number;
  signal?: AbortSignal;
  launcher?: CommandLauncher;
  /** Extra environment on top of process.env and the non-interactive defaults. */
  env?: Record<string, string>;
  /** Time between SIGTERM and SIGKILL. */
  killGraceMs?: number;
}

export interface ShellExit {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  interrupted?: InterruptReason;
  /** The shell's directory when the command ended (`pwd -P`), when it could report it. */
  finalCwd?: string;
  durationMs: number;
}

export interface ShellProcess {
  readonly pid: number;
  readonly outputPath: string;
  /** Resolves when bash itself has exited (and, if it was killed, when its group is gone). */
  readonly done: Promise<ShellExit>;
  /** Ends the whole process group: SIGTERM, then SIGKILL after the grace period. */
  kill(reason: InterruptReason): void;
}

export const DEFAULT_KILL_GRACE_MS = 2_000;

/** Defaults that make tools fail fast instead of waiting for a person who is not there. */
const NON_INTERACTIVE_ENV: Record<string, string> = {
  GIT_TERMINAL_PROMPT: "0",
  GIT_EDITOR: "true",
  GIT_PAGER: "cat",
  PAGER: "cat",
  KEEL_SHELL: "1",
};

// Set before the user's command, on the same line, so the command's line numbers are unchanged.
const CWD_TRAP = "trap '{ pwd -P >&3; } 2>/dev/null' EXIT; ";

let cwdReportDir: string | undefined;
let cwdReports = 0;

/** Creates a fresh file for one command's cwd report, in a private folder made once per process. */
function createCwdReport(): { path: string; fd: number } {
  for (let attempt = 0; ; attempt++) {
    if (cwdReportDir === undefined) {
      const dir = mkdtempSync(join(tmpdir(), "keel-cwd-"));
      process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
      cwdReportDir = dir;
    }
    const path = join(cwdReportDir, String(++cwdReports));
    try {
      return { path, fd: openSync(path, "w") };
    } catch (error) {
      // The folder was removed under us (a temp cleaner): make a new one, once.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || attempt > 0) throw error;
      cwdReportDir = undefined;
    }
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}

/** The last line of the cwd report, or undefined when the shell wrote none (killed, exec'd away). */
function readCwdReport(path: string): string | undefined {
  let reported = "";
  try {
    reported = readFileSync(path, "utf8").trim();
  } catch {}
  removeQuietly(path);
  return reported ? reported.split("\n").at(-1) : undefined;
}

/** Commands still running, killed if this process exits (commands die with their caller). */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
  });
}

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Whether any process of the group is still running. kill(-pgid, 0) also counts zombies waiting for
 * a slow reaper, so on Linux the group's members are read from /proc and zombies ignored.
 */
function groupIsRunning(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (process.platform !== "linux") return true;
  try {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue;
      }
      // Fields after the command name, which is in parentheses and may hold anything: state ppid pgrp ...
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z") return true;
    }
    return false;
  } catch {
    return true;
  }
}

/** TERM the group, wait until it is gone or the grace period ends, then KILL what is left. */
async function killGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, "SIGTERM")) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await sleep(25);
    if (!groupIsRunning(pgid)) return;
  }
  // SIGKILL cannot be caught or ignored: once sent, the group is as good as gone.
  signalGroup(pgid, "SIGKILL");
}

function waitForExit(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
}

const plainBash: CommandLauncher = {
  prepare: async (script) => ({ argv: ["bash", "-c", script], env: process.env }),
};

/** Starts a command; returns once the process is spawned. */
export async function startShellCommand(options: ShellCommandOptions): Promise<ShellProcess> {
  const launcher = options.launcher ?? plainBash;
  const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  let cwdPath: string | undefined;
  const started = Date.now();
  let child: ChildProcess;
  try {
    const { argv, env } = await launcher.prepare(CWD_TRAP + options.command, options.cwd);
    const outputFd = openSync(options.outputPath, "w");
    try {
      const cwdReport = createCwdReport();
      cwdPath = cwdReport.path;
      const cwdFd = cwdReport.fd;
      try {
        const childEnv = { ...env, ...NON_INTERACTIVE_ENV, ...options.env };
        const path = pathWithRipgrep(childEnv.PATH);
        if (path !== undefined) childEnv.PATH = path;
        child = spawn(argv[0] ?? "bash", argv.slice(1), {
          cwd: options.cwd,
          env: childEnv,
          stdio: ["ignore", outputFd, outputFd, cwdFd],
          detached: true,
        });
      } finally {
        closeSync(cwdFd);
      }
    } finally {
      // The child holds its own copies; ours are not needed once spawn returns.
      closeSync(outputFd);
    }
  } catch (error) {
    launcher.release?.();
    if (cwdPath !== undefined) removeQuietly(cwdPath);
    throw error;
  }
  const exited = waitForExit(child);
  const pid = child.pid;
  if (pid === undefined) {
    launcher.release?.();
    if (cwdPath !== undefined) removeQuietly(cwdPath);
    const error = await exited.then(
      () => new Error("bash did not start"),
      (cause: unknown) => cause,
    );
    throw error instanceof Error ? error : new Error(String(error));
  }
  installExitHook();
  liveGroups.add(pid);

  let interrupted: InterruptReason | undefined;
  let killing: Promise<void> | undefined;
  const kill = (reason: InterruptReason) => {
    if (killing) return;
    interrupted = reason;
    killing = killGroup(pid, graceMs);
  };
  const timer =
    options.timeoutMs === undefined ? undefined : setTimeout(() => kill("timeout"), options.timeoutMs);
  const onAbort = () => kill("abort");
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });

  const done = (async (): Promise<ShellExit> => {
    const { code, signal } = await exited.catch(() => ({ code: null, signal: null }));
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    if (killing) await killing;
    // Left-over daemons of a command that exited normally keep running on purpose (`server &`).
    liveGroups.delete(pid);
    launcher.release?.();
    const finalCwd = cwdPath === undefined ? undefined : readCwdReport(cwdPath);
    return {
      exitCode: code,
      signal,
      ...(interrupted ? { interrupted } : {}),
      ...(finalCwd ? { finalCwd } : {}),
      durationMs: Date.now() - started,
    };
  })();

  return { pid, outputPath: options.outputPath, done, kill };
}
