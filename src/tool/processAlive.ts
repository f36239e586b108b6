// Whether the process that left something behind (a temp file, a session folder) is gone. A pid alone
// is not enough: pids are reused, so a live pid that started after the thing was last touched is not
// its owner either. Start times come from /proc on Linux; elsewhere a live pid counts as the owner.
import { readFileSync } from "node:fs";

/** Linux's USER_HZ: /proc reports start times in these ticks (100 on every architecture Node runs on). */
const TICKS_PER_SECOND = 100;
/** /proc's boot time has whole seconds and the clock may have been stepped since: a margin for both. */
const START_TIME_SLACK_MS = 2_000;

let bootTimeMs: number | undefined | null = null;

function bootTime(): number | undefined {
  if (bootTimeMs !== null) return bootTimeMs;
  try {
    const line = /^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"));
    bootTimeMs = line ? Number(line[1]) * 1000 : undefined;
  } catch {
    bootTimeMs = undefined;
  }
  return bootTimeMs;
}

/** When `pid` started (ms since the epoch), or undefined where /proc cannot tell. */
export function processStartMs(pid: number): number | undefined {
  const boot = bootTime();
  if (boot === undefined) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[19]);
  return Number.isFinite(ticks) ? boot + (ticks * 1000) / TICKS_PER_SECOND : undefined;
}

/** True when no process has this pid (EPERM means one exists, owned by someone else). */
export function pidIsFree(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * True when the process `pid` that last touched something at `touchedMs` no longer runs: no process has
 * the pid, or the one that has it started after that moment (the pid was reused).
 */
export function ownerIsGone(pid: number, touchedMs: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pidIsFree(pid)) return true;
  const started = processStartMs(pid);
  return started !== undefined && started > touchedMs + START_TIME_SLACK_MS;
}
