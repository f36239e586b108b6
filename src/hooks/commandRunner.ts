// Running one command hook: a shell in its own process group, the event JSON on stdin, stdout and
// stderr collected (capped), and the whole group killed at the timeout or when the caller aborts.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { ownProcessGroup } from "../tool/ownedProcesses.ts";
import type { RawHookRun } from "./output.ts";

const MAX_CAPTURE = 1_000_000;
/** After the shell exits, how long a grandchild may hold the pipes open before we stop reading. */
const DRAIN_GRACE_MS = 200;

export interface CommandHookRun {
  command: string;
  stdin: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutSeconds: number;
  signal: AbortSignal;
}

const SHELL = existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

export function runCommandHook(run: CommandHookRun): Promise<RawHookRun> {
  const started = performance.now();
  return new Promise((resolvePromise) => {
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let aborted = false;
    let settled = false;
    const child = spawn(SHELL, ["-c", run.command], {
      cwd: run.cwd,
      env: run.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    // The hook's whole tree dies with Keel, however Keel ends, while the hook's shell runs.
    const disown = child.pid === undefined ? () => {} : ownProcessGroup(child.pid);
    const finish = (fields: Partial<RawHookRun>) => {
      if (settled) return;
      settled = true;
      disown();
      clearTimeout(timer);
      run.signal.removeEventListener("abort", onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolvePromise({
        exitCode: null,
        stdout,
        stderr,
        timedOut,
        aborted,
        timeoutSeconds: run.timeoutSeconds,
        durationMs: Math.round(performance.now() - started),
        ...fields,
      });
    };
    const onAbort = () => {
      aborted = true;
      killGroup(child);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, run.timeoutSeconds * 1000);
    if (run.signal.aborted) onAbort();
    else run.signal.addEventListener("abort", onAbort, { once: true });

    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      if (stdout.length < MAX_CAPTURE) stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      if (stderr.length < MAX_CAPTURE) stderr += chunk;
    });
    // A hook that never reads stdin closes the pipe early; that is not an error.
    child.stdin?.on("error", () => {});
    child.stdin?.end(run.stdin);

    child.on("error", (error) => finish({ startError: error.message }));
    child.on("exit", (code, signal) => {
      disown();
      // Something the hook started in the background may hold the pipes open: do not wait for it.
      const done = () => finish({ exitCode: code, signal });
      const grace = setTimeout(done, DRAIN_GRACE_MS);
      child.on("close", () => {
        clearTimeout(grace);
        done();
      });
    });
  });
}
