// Running one shell command: bash with stdin closed, in its own process group, output written
// straight to a file (so any output size costs no memory and a daemon holding the output open never
// blocks us), the final cwd reported on fd 3, the whole group killed on timeout, abort or stop.
// The few file operations around a command are synchronous: each is one system call on a tiny file,
// where a trip through libuv's thread pool costs more than the call itself.
import { type ChildProcess, spawn } from "node:child_process";
import {
  close,
  closeSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  unlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ownProcessGroup } from "../../tool/ownedProcesses.ts";
import { RESULT_FILE_MODE } from "../../tool/resultsFolder.ts";
import { openAnonymousFile } from "./anonymousFile.ts";
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
  /**
   * The output file already opened for writing by the caller, who keeps it (and closes it): it can
   * read the output back through it without opening the file again. `outputPath` is then only its name.
   */
  outputFd?: number;
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
  /**
   * The shell's directory when the command ended (`pwd -P`), when it could report it. Not asked
   * for when the command cannot have left the directory it started in (see mayChangeDirectory).
   */
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

// What a command needs to leave its starting directory: the cd, pushd or popd builtins named in its
// text, code from elsewhere (a sourced file, eval, a callback, an exported function, BASH_ENV), or a
// word whose value is only known once bash expands it (quotes, escapes, parameters, braces, globs,
// which can all make "cd" out of text that does not hold it). Matched as bare substrings, so it errs
// towards asking for the report.
const DIRECTORY_CHANGERS = /cd|pushd|popd|source|eval|enable|mapfile|readarray|fc|[$`'"\\{}*?[]/;
/** `.` as a word of its own: the source builtin. */
const DOT_COMMAND = /(?:^|[\s;&|()])\.(?:$|[\s;&|()<>])/;

/** Names that bring bash code from the environment: BASH_ENV and exported functions. */
function bringsCode(env: NodeJS.ProcessEnv): boolean {
  for (const name of Object.keys(env)) if (name === "BASH_ENV" || name.startsWith("BASH_FUNC_")) return true;
  return false;
}

// Listing process.env copies every variable (tens of microseconds, more than the rest of a call's
// setup), so Keel's own environment is looked at once: exported functions come from the shell that
// started Keel, not from later changes.
let ownEnvironmentBringsCode: boolean | undefined;

/**
 * Whether the shell may end in another directory than it started in, so the cwd report is needed.
 * When it says no, the command runs without the report's exit trap and descriptor (about 0.1 ms
 * of a 3 ms call). Exported functions and BASH_ENV bring code the text does not show: always yes.
 */
export function mayChangeDirectory(command: string, extraEnv?: Record<string, string>): boolean {
  if (DIRECTORY_CHANGERS.test(command) || DOT_COMMAND.test(command)) return true;
  ownEnvironmentBringsCode ??= bringsCode(process.env);
  return ownEnvironmentBringsCode || (extraEnv !== undefined && bringsCode(extraEnv));
}

/** A value as one single-quoted shell word. */
function shellWord(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

let lastExports: { pathValue: string | undefined; prefix: string } | undefined;

/**
 * The non-interactive defaults (and rg's folder on PATH) as exports at the head of the script, for a
 * command run with this process's own environment: Node then hands bash process.env as it is, where
 * copying it into an object first costs more than the rest of the call's setup together.
 */
function exportsPrefix(pathValue: string | undefined): string {
  if (lastExports !== undefined && lastExports.pathValue === pathValue) return lastExports.prefix;
  const exports = Object.entries(NON_INTERACTIVE_ENV);
  const path = pathWithRipgrep(pathValue);
  if (path !== undefined && path !== pathValue) exports.push(["PATH", path]);
  const prefix = `export ${exports.map(([name, value]) => `${name}=${shellWord(value)}`).join(" ")}; `;
  lastExports = { pathValue, prefix };
  return prefix;
}

/** Folders tried for the nameless cwd report: a memory file system first, where writing costs least. */
const ANONYMOUS_FILE_DIRS = ["/dev/shm", tmpdir()];

let cwdReportDir: string | undefined;
let cwdReports = 0;

/** A named file in a private folder made once per process, unlinked at once (where O_TMPFILE is not). */
function openUnlinkedInPrivateDir(): number {
  for (let attempt = 0; ; attempt++) {
    if (cwdReportDir === undefined) {
      const dir = mkdtempSync(join(tmpdir(), "keel-cwd-"));
      process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
      cwdReportDir = dir;
    }
    const path = join(cwdReportDir, String(++cwdReports));
    try {
      const fd = openSync(path, "w+");
      removeQuietly(path);
      return fd;
    } catch (error) {
      // The folder was removed under us (a temp cleaner): make a new one, once.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || attempt > 0) throw error;
      cwdReportDir = undefined;
    }
  }
}

/**
 * A fresh file for one command's cwd report, read back through the descriptor we keep: it never has
 * a name others could see, and nothing is left to remove. Each command gets its own, so a daemon an
 * earlier command left holding fd 3 can never write into a later command's report.
 */
function openCwdReport(): number {
  for (const dir of ANONYMOUS_FILE_DIRS) {
    const fd = openAnonymousFile(dir);
    if (fd !== undefined) return fd;
  }
  return openUnlinkedInPrivateDir();
}

/** Removes a file, if it is still there. */
export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {}
}

/** Bytes read back from the report: a path is at most 4,096 bytes, so its last line is within them. */
const CWD_REPORT_BYTES = 8_192;
const cwdReportBuffer = Buffer.allocUnsafe(CWD_REPORT_BYTES);

/**
 * The last line of the cwd report, or undefined when the shell wrote none (killed, exec'd away).
 * This runs while the caller waits for the result, so it makes as few system calls as it can: one
 * read when the report is short (it always is, unless something else wrote to fd 3), and the close
 * goes to the thread pool.
 */
function readCwdReport(fd: number): string | undefined {
  let reported = "";
  try {
    let read = readSync(fd, cwdReportBuffer, 0, CWD_REPORT_BYTES, 0);
    if (read === CWD_REPORT_BYTES) {
      const size = fstatSync(fd).size;
      read = readSync(fd, cwdReportBuffer, 0, CWD_REPORT_BYTES, size - CWD_REPORT_BYTES);
    }
    reported = cwdReportBuffer.toString("utf8", 0, read).trim();
  } catch {}
  close(fd, () => {});
  return reported ? reported.split("\n").at(-1) : undefined;
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
  const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  // Plain bash with this process's environment takes the defaults as exports in the script.
  const ownEnvironment = options.launcher === undefined && options.env === undefined;
  const reportCwd = mayChangeDirectory(options.command, options.env);
  const script =
    (reportCwd ? CWD_TRAP : "") + (ownEnvironment ? exportsPrefix(process.env.PATH) : "") + options.command;
  let cwdFd: number | undefined;
  const started = Date.now();
  let child: ChildProcess;
  try {
    const { argv, env } = await (options.launcher ?? plainBash).prepare(script, options.cwd);
    const outputFd = options.outputFd ?? openSync(options.outputPath, "w", RESULT_FILE_MODE);
    try {
      if (reportCwd) cwdFd = openCwdReport();
      let childEnv: NodeJS.ProcessEnv | undefined;
      if (!ownEnvironment) {
        childEnv = { ...env, ...NON_INTERACTIVE_ENV, ...options.env };
        const path = pathWithRipgrep(childEnv.PATH);
        if (path !== undefined) childEnv.PATH = path;
      }
      child = spawn(argv[0] ?? "bash", argv.slice(1), {
        cwd: options.cwd,
        ...(childEnv ? { env: childEnv } : {}),
        stdio: ["ignore", outputFd, outputFd, ...(cwdFd === undefined ? [] : [cwdFd])],
        detached: true,
      });
    } finally {
      // The child holds its own copy; ours is not needed once spawn returns, unless the caller keeps it.
      if (options.outputFd === undefined) closeSync(outputFd);
    }
  } catch (error) {
    options.launcher?.release?.();
    if (cwdFd !== undefined) closeSync(cwdFd);
    throw error;
  }
  const exited = waitForExit(child);
  const pid = child.pid;
  if (pid === undefined) {
    options.launcher?.release?.();
    if (cwdFd !== undefined) closeSync(cwdFd);
    const error = await exited.then(
      () => new Error("bash did not start"),
      (cause: unknown) => cause,
    );
    throw error instanceof Error ? error : new Error(String(error));
  }
  // Killed if this process ends while the command runs (commands die with their caller).
  const disown = ownProcessGroup(pid);

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
    disown();
    options.launcher?.release?.();
    const finalCwd = cwdFd === undefined ? undefined : readCwdReport(cwdFd);
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
