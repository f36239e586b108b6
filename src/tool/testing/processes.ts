// Test helpers: the processes of this machine as /proc shows them (Linux), to check what a process tree
// left behind, zombies (dead, waiting for their parent to read their status) not counted.
import { readdirSync, readFileSync } from "node:fs";

interface ProcessInfo {
  pid: number;
  state: string;
  ppid: number;
  pgid: number;
  argv: string[];
}

function readProcess(pid: string): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold anything: state ppid pgrp ...
    const [state = "", ppid, pgid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
    return { pid: Number(pid), state, ppid: Number(ppid), pgid: Number(pgid), argv };
  } catch {
    return undefined;
  }
}

function processes(): ProcessInfo[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(readProcess)
    .filter((info): info is ProcessInfo => info !== undefined && info.state !== "Z");
}

/** Live processes whose argv is exactly this. */
export function processesRunning(argv: readonly string[]): ProcessInfo[] {
  return processes().filter(
    (info) => info.argv.length === argv.length && info.argv.every((arg, i) => arg === argv[i]),
  );
}

/** Live processes whose argv holds this word. */
export function processesWithArg(word: string): ProcessInfo[] {
  return processes().filter((info) => info.argv.includes(word));
}

/** Whether a process runs (a zombie does not). */
export function isRunning(pid: number): boolean {
  const info = readProcess(String(pid));
  return info !== undefined && info.state !== "Z";
}

/** The CPU time a process has used, in clock ticks, and its state (R running, S sleeping...). */
function cpuTicks(pid: number): { ticks: number; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { ticks: Number(fields[11]) + Number(fields[12]), state: fields[0] ?? "" };
  } catch {
    return undefined;
  }
}

/** Waits until a process has settled into waiting (asleep, no CPU used for a while): it has started. */
export async function waitUntilIdle(pid: number, what: string): Promise<void> {
  let last = cpuTicks(pid);
  await waitUntil(
    () => {
      const now = cpuTicks(pid);
      const idle = now !== undefined && now.state === "S" && now.ticks === last?.ticks;
      last = now;
      return idle;
    },
    what,
    30_000,
    300,
  );
}

/** The parent of a process (0 when it is gone). */
export function parentOf(pid: number): number {
  return readProcess(String(pid))?.ppid ?? 0;
}

/** Live members of a process group. */
export function groupMembers(pgid: number): ProcessInfo[] {
  return processes().filter((info) => info.pgid === pgid);
}

/** A number no other test's `sleep` uses, so its process can be found by its argv. */
export function uniqueSeconds(base: number): string {
  return `${base}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}

/** Waits until `check` holds, polling every `everyMs`; fails after `ms` with `what`. */
export async function waitUntil(
  check: () => boolean,
  what: string,
  ms = 15_000,
  everyMs = 25,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
