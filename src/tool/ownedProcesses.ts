// The processes Keel started and still owns: hook commands, Bash calls and background shells, language
// servers (each in a process group of its own) and MCP servers on stdio (single processes). However
// Keel's process ends (its work done, process.exit, an uncaught error, a stop signal: see stopSignals.ts),
// whatever of them still runs is killed on the way out. Only SIGKILL of Keel itself leaves them: nothing
// runs then, and they are left to end when their input closes.
import { readFileSync } from "node:fs";

const groups = new Set<number>();
const singles = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", killOwnedProcesses);
}

/** Owns a process group (a child spawned `detached`, whose pid is its group id) until `release` is called. */
export function ownProcessGroup(pgid: number): () => void {
  installExitHook();
  groups.add(pgid);
  return () => groups.delete(pgid);
}

/** Owns one process (a child in Keel's own group) until `release` is called. */
export function ownProcess(pid: number): () => void {
  installExitHook();
  singles.add(pid);
  return () => singles.delete(pid);
}

/** How many processes and groups are owned now (tests, `keel doctor`). */
export function ownedProcessCount(): number {
  return groups.size + singles.size;
}

/** Whether `pid` is still a child of this process (Linux; elsewhere assumed): a reused pid is left alone. */
function isOwnChild(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold anything: state ppid ...
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return parent === process.pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ENOENT" || process.platform !== "linux";
  }
}

/**
 * SIGKILL to every owned group and process, now. Synchronous: it runs in the `exit` event too. Each
 * stays owned until its owner sees it exit (and releases it).
 */
export function killOwnedProcesses(): void {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
  for (const pid of singles) {
    if (!isOwnChild(pid)) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function untilNoneOwned(ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (ownedProcessCount() > 0 && Date.now() < deadline) await sleep(20);
}

/**
 * Waits (at most `ms`) for the owners to end their processes their own way (a Bash call's group gets
 * SIGTERM, then SIGKILL), then kills what is left and waits a moment more: a child that ends while
 * Keel still runs is reaped by Keel, rather than left to whoever adopts it.
 */
export async function endOwnedProcesses(ms: number): Promise<void> {
  await untilNoneOwned(ms);
  if (ownedProcessCount() === 0) return;
  killOwnedProcesses();
  await untilNoneOwned(500);
}
