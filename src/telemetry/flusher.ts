// Who sends the spool. `flushTelemetrySpool()` exports what is waiting, once. A process that records a
// decision then either
//   - flushes in this process, a second later, when it called `keepTelemetryFlushed()` (flushMode.ts:
//     the decision server), retrying with backoff while the collector is unreachable; or
//   - starts the flusher, a small detached process (flusherMain.ts), unless one is running: it flushes,
//     retries with backoff, waits FLUSHER_IDLE_MS for more and exits (after FLUSHER_MAX_LIFE_MS at the
//     latest). That is what `keel hook` and `keel tool` in their own process, `keel mcp` and the agent do,
//     so a short-lived process exits at once and a long one never waits on a collector.
// One sender at a time: `~/.keel/telemetry/flusher.lock` holds the sender's pid (or, while a flusher
// starts, the token its starter gave it). A long-lived process that exits with events still waiting
// starts the flusher for them.
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { flushesInThisProcess } from "./flushMode.ts";
import {
  pruneDestinations,
  readSpool,
  type SpoolBatch,
  type SpooledEvent,
  settleEvents,
  spoolCount,
} from "./spool.ts";

export const FLUSHER_IDLE_MS = 30_000;
export const FLUSHER_MAX_LIFE_MS = 5 * 60_000;
/** Events sent in one request. */
const BATCH = 512;
/** A lock older than this belongs to no live sender, whatever it says. */
const STALE_LOCK_MS = FLUSHER_MAX_LIFE_MS + 60_000;
/** A flusher that was started but has not taken its lock within this time never will. */
const START_MS = 10_000;
const IN_PROCESS_DELAY_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;

const require = createRequire(import.meta.url);

export function lockFile(root: string): string {
  return join(root, "flusher.lock");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The lock's holder: a live pid, a flusher still starting ("starting"), or nobody. */
function lockHolder(root: string): number | "starting" | undefined {
  try {
    const lock = lockFile(root);
    const content = readFileSync(lock, "utf8");
    const age = Date.now() - statSync(lock).mtimeMs;
    if (content.startsWith("starting:")) return age < START_MS ? "starting" : undefined;
    const pid = Number(content);
    if (age > STALE_LOCK_MS) return undefined;
    return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The pid of the process sending the spool now, if any. */
export function runningFlusher(root: string): number | undefined {
  const holder = lockHolder(root);
  return typeof holder === "number" ? holder : undefined;
}

/** Takes the lock with this content; false when a live sender (or a starting flusher) has it. */
function takeLock(root: string, content: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile(root), "wx", 0o600);
      writeSync(fd, content);
      closeSync(fd);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
      if (lockHolder(root) !== undefined) return false;
      try {
        unlinkSync(lockFile(root));
      } catch {}
    }
  }
  return false;
}

function releaseLock(root: string): void {
  try {
    if (readFileSync(lockFile(root), "utf8") === String(process.pid)) unlinkSync(lockFile(root));
  } catch {}
}

/** The flusher's entry file beside this module (flusherMain.ts from source, .js when built). */
function flusherEntry(): string {
  const ext = extname(fileURLToPath(import.meta.url));
  return fileURLToPath(new URL(`./flusherMain${ext}`, import.meta.url));
}

/**
 * Starts the flusher unless a sender holds the lock. The lock is taken here, for the flusher, so that
 * calls made while it starts do not start more. It gets the spool folder, its idle time and its token as
 * arguments and no environment but PATH: where events go is in the spool, not in this process.
 */
export function ensureFlusher(root: string, idleMs = FLUSHER_IDLE_MS): void {
  if (lockHolder(root) !== undefined) return;
  const token = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
  if (!takeLock(root, `starting:${token}`)) return;
  try {
    const { spawn } = require("node:child_process") as typeof import("node:child_process");
    spawn(process.execPath, [flusherEntry(), root, String(idleMs), token], {
      cwd: root,
      detached: true,
      stdio: "ignore",
      env: { PATH: process.env.PATH ?? "" },
    }).unref();
  } catch {
    try {
      unlinkSync(lockFile(root));
    } catch {}
  }
}

export interface FlushReport {
  /** Events every wanted signal of which the collector took. */
  sent: number;
  /** Events still waiting (the collector refused or could not be reached). */
  waiting: number;
}

function untried(batch: SpoolBatch, tried: ReadonlySet<string>): SpoolBatch {
  const keep = batch.files.map((file) => !tried.has(file));
  return {
    ...batch,
    files: batch.files.filter((_, index) => keep[index]),
    events: batch.events.filter((_, index) => keep[index]),
  };
}

/**
 * Exports what the spool holds now, destination by destination, in batches; events the collector took
 * are removed, the others wait for the next flush. Never throws. For a process that flushes on its own
 * schedule (the decision server may call it); it does not take the lock, so call it where no flusher runs.
 */
export async function flushTelemetrySpool(root: string): Promise<FlushReport> {
  const report: FlushReport = { sent: 0, waiting: 0 };
  const failed = new Set<string>();
  // A file tried once is not tried again in this flush, even if it could not be removed.
  const tried = new Set<string>();
  try {
    const { exportEvents, wantedSignals } = await import("./export.ts");
    for (;;) {
      const batches = readSpool(root, BATCH)
        .filter((batch) => !failed.has(batch.dir))
        .map((batch) => untried(batch, tried))
        .filter((batch) => batch.files.length > 0);
      if (batches.length === 0) break;
      for (const batch of batches) {
        for (const file of batch.files) tried.add(file);
        const wanted = wantedSignals(batch.destination);
        const sent = new Set<"logs" | "metrics">();
        for (const signal of wanted) {
          const pending = batch.events.filter((event: SpooledEvent) => !event.sent?.includes(signal));
          if (await exportEvents(batch.destination, pending, signal)) sent.add(signal);
        }
        settleEvents(batch.files, batch.events, sent, wanted);
        if ([...wanted].every((signal) => sent.has(signal))) report.sent += batch.files.length;
        else failed.add(batch.dir);
      }
    }
    report.waiting = spoolCount(root).events;
    pruneDestinations(root);
  } catch {
    // A spool that cannot be read now is tried again by the next flush.
  }
  return report;
}

/** The detached flusher's life: flush, retry with backoff, wait for more, exit when idle or old. */
export async function runFlusher(root: string, idleMs: number, token: string): Promise<void> {
  // The lock its starter took for it becomes this process's.
  try {
    if (readFileSync(lockFile(root), "utf8") !== `starting:${token}`) return;
    writeFileSync(lockFile(root), String(process.pid), { mode: 0o600 });
  } catch {
    return;
  }
  const started = Date.now();
  let backoff = 1_000;
  let idleSince = Date.now();
  try {
    while (Date.now() - started < FLUSHER_MAX_LIFE_MS) {
      const report = await flushTelemetrySpool(root);
      if (report.sent > 0) idleSince = Date.now();
      if (report.waiting > 0) {
        await sleep(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        continue;
      }
      backoff = 1_000;
      if (Date.now() - idleSince >= idleMs) break;
      await sleep(Math.min(500, idleMs));
    }
  } finally {
    releaseLock(root);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Spool folders this process flushes itself, with the pending flush of each. */
const inProcess = new Map<string, { timer?: NodeJS.Timeout; backoff: number }>();

/** What is still waiting when a process that flushes itself exits goes to a flusher process. */
function startFlusherAtExit(): void {
  for (const root of inProcess.keys()) if (spoolCount(root).events > 0) ensureFlusher(root);
}

/** After an event was spooled: flush it here (a long-lived process) or make sure a flusher runs. */
export function afterSpooled(root: string, idleMs = FLUSHER_IDLE_MS): void {
  if (!flushesInThisProcess()) {
    ensureFlusher(root, idleMs);
    return;
  }
  if (inProcess.size === 0) process.once("exit", startFlusherAtExit);
  const state = inProcess.get(root) ?? { backoff: IN_PROCESS_DELAY_MS };
  inProcess.set(root, state);
  if (!state.timer) scheduleInProcess(root, state, IN_PROCESS_DELAY_MS);
}

function scheduleInProcess(
  root: string,
  state: { timer?: NodeJS.Timeout; backoff: number },
  delay: number,
): void {
  state.timer = setTimeout(async () => {
    // A flusher process sending now has the lock: it takes these events too.
    const report = takeLock(root, String(process.pid))
      ? await flushTelemetrySpool(root).finally(() => releaseLock(root))
      : undefined;
    state.timer = undefined;
    if (report && report.waiting > 0) {
      state.backoff = Math.min(state.backoff * 2, MAX_BACKOFF_MS);
      scheduleInProcess(root, state, state.backoff);
    } else state.backoff = IN_PROCESS_DELAY_MS;
  }, delay);
  // Never what keeps a process alive: whatever is left at exit goes to a flusher process.
  state.timer.unref();
}
