// Durable scheduled prompts live with the project: `.keel/scheduled_tasks.json` (Keel's, read and
// written), and `.claude/scheduled_tasks.json` (Claude Code's, read only: what Keel fires of it is noted
// in Keel's file). Every change is made under an inter-process lock (proper-lockfile), so two sessions
// open in one project never both fire one job.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import lockfile from "proper-lockfile";
import { atomicWriteJson } from "../../settings/atomicJson.ts";

export const MAX_DURABLE_JOBS = 50;

export interface DurableJob {
  id: string;
  cron: string;
  prompt: string;
  recurring: boolean;
  createdAt: number;
  lastFiredAt?: number;
}

interface KeelFile {
  tasks: DurableJob[];
  /** Jobs of Claude Code's file Keel has fired (when last), or finished (one-shot fired, or deleted). */
  claude?: Record<string, { lastFiredAt?: number; done?: boolean }>;
}

export interface DurableStore {
  keelFile: string;
  claudeFile: string;
}

export function durableStore(projectRoot: string): DurableStore {
  return {
    keelFile: join(projectRoot, ".keel", "scheduled_tasks.json"),
    claudeFile: join(projectRoot, ".claude", "scheduled_tasks.json"),
  };
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as unknown;
  } catch {
    return undefined;
  }
}

function toTime(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && !Number.isNaN(Date.parse(value))) return Date.parse(value);
  return undefined;
}

/** One job from either file; anything that is not one is skipped. */
function jobFrom(value: unknown): DurableJob | undefined {
  const raw = value as Record<string, unknown> | null;
  if (!raw || typeof raw !== "object") return undefined;
  const createdAt = toTime(raw.createdAt);
  if (typeof raw.id !== "string" || typeof raw.cron !== "string" || typeof raw.prompt !== "string")
    return undefined;
  if (createdAt === undefined) return undefined;
  const lastFiredAt = toTime(raw.lastFiredAt);
  return {
    id: raw.id,
    cron: raw.cron,
    prompt: raw.prompt,
    recurring: raw.recurring !== false,
    createdAt,
    ...(lastFiredAt !== undefined ? { lastFiredAt } : {}),
  };
}

function jobsIn(value: unknown): DurableJob[] {
  const list = Array.isArray(value) ? value : (value as { tasks?: unknown } | undefined)?.tasks;
  return Array.isArray(list) ? list.map(jobFrom).filter((job): job is DurableJob => job !== undefined) : [];
}

function readKeel(store: DurableStore): KeelFile {
  const value = readJson(store.keelFile) as { claude?: unknown } | undefined;
  const claude =
    value?.claude && typeof value.claude === "object" ? (value.claude as KeelFile["claude"]) : {};
  return { tasks: jobsIn(value), claude };
}

export interface LoadedJob extends DurableJob {
  source: "keel" | "claude";
}

/** Every durable job of the project, Claude Code's included (minus those Keel has finished). */
export function readDurableJobs(store: DurableStore): LoadedJob[] {
  const keel = readKeel(store);
  const own = keel.tasks.map((job) => ({ ...job, source: "keel" as const }));
  const claude = jobsIn(readJson(store.claudeFile))
    .filter((job) => !keel.claude?.[job.id]?.done && !own.some((mine) => mine.id === job.id))
    .map((job) => {
      const fired = keel.claude?.[job.id]?.lastFiredAt;
      return { ...job, source: "claude" as const, ...(fired !== undefined ? { lastFiredAt: fired } : {}) };
    });
  return [...own, ...claude];
}

/** Runs `change` on Keel's file under the project's lock; what it returns is written back. */
export async function updateDurableJobs<T>(store: DurableStore, change: (file: KeelFile) => T): Promise<T> {
  mkdirSync(join(store.keelFile, ".."), { recursive: true });
  const release = await lockfile.lock(join(store.keelFile, ".."), {
    lockfilePath: `${store.keelFile}.lock`,
    stale: 10_000,
    retries: { retries: 20, minTimeout: 20, maxTimeout: 200 },
  });
  try {
    const file = readKeel(store);
    const result = change(file);
    atomicWriteJson(store.keelFile, file, 0o644);
    return result;
  } finally {
    await release();
  }
}
