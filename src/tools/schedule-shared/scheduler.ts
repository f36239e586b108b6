// A session's scheduled prompts: cron jobs (CronCreate) and one wakeup (ScheduleWakeup). When one comes
// due, its prompt is handed to `fire`, and the session runs it once it is idle, under the permissions in
// force then (nothing of the moment it was made is kept but the prompt). Session jobs end with the
// session; durable ones live in the project (durableJobs.ts) and fire while any session is open there.
// Bounds: MAX_SESSION_JOBS jobs a session, MAX_DURABLE_JOBS a project, one wakeup; recurring jobs expire
// RECURRING_EXPIRY_MS after they were made.
import type { ToolUseContext } from "../../tool/context.ts";
import { randomBytes } from "../../tool/lazyCrypto.ts";
import type { Clock } from "./clock.ts";
import { nextFireAfter } from "./cron.ts";
import {
  type DurableStore,
  type LoadedJob,
  MAX_DURABLE_JOBS,
  readDurableJobs,
  updateDurableJobs,
} from "./durableJobs.ts";

export const MAX_SESSION_JOBS = 50;
export const RECURRING_EXPIRY_MS = 30 * 24 * 3600 * 1000;
export const WAKEUP_MIN_SECONDS = 60;
export const WAKEUP_MAX_SECONDS = 3600;
/** The timer never waits longer than this before looking again (the machine may have slept). */
const MAX_TIMER_MS = 60_000;

export const SCHEDULER: unique symbol = Symbol.for("keel.scheduler");

export interface CronJob {
  id: string;
  cron: string;
  prompt: string;
  recurring: boolean;
  durable: boolean;
  createdAt: number;
  /** Recurring jobs: deleted at their first fire time after this. */
  expiresAt?: number;
  lastFiredAt?: number;
  nextFireAt?: number;
  source: "session" | "keel" | "claude";
}

export interface Wakeup {
  at: number;
  reason: string;
  prompt: string;
}

export interface FiredPrompt {
  prompt: string;
  /** One line for the person: what fired and why. */
  label: string;
}

export interface SchedulerOptions {
  clock: Clock;
  /** Where durable jobs are kept; without it, `durable: true` is refused. */
  store?: DurableStore;
  fire(fired: FiredPrompt): void;
}

export class SchedulerError extends Error {}

export class Scheduler {
  readonly [SCHEDULER] = true as const;
  readonly #options: SchedulerOptions;
  readonly #jobs = new Map<string, CronJob>();
  #wakeup: Wakeup | undefined;
  #timer: unknown;
  #closed = false;

  constructor(options: SchedulerOptions) {
    this.#options = options;
  }

  get clock(): Clock {
    return this.#options.clock;
  }

  get durableFile(): string | undefined {
    return this.#options.store?.keelFile;
  }

  /** Loads the project's durable jobs; one whose time passed while no session was open fires now, once. */
  async start(): Promise<void> {
    if (!this.#options.store) return;
    const now = this.clock.now();
    for (const job of readDurableJobs(this.#options.store)) {
      const loaded = this.#fromDurable(job);
      this.#jobs.set(loaded.id, loaded);
      const missed = nextFireAfter(job.cron, job.lastFiredAt ?? job.createdAt);
      if (missed !== undefined && missed <= now) {
        const when = new Date(missed).toLocaleString();
        await this.#fireDurable(
          loaded,
          missed,
          `missed at ${when}, when no Keel session was open in this project`,
        );
      }
    }
    this.#arm();
  }

  #fromDurable(job: LoadedJob): CronJob {
    const now = this.clock.now();
    return {
      id: job.id,
      cron: job.cron,
      prompt: job.prompt,
      recurring: job.recurring,
      durable: true,
      createdAt: job.createdAt,
      ...(job.recurring ? { expiresAt: job.createdAt + RECURRING_EXPIRY_MS } : {}),
      ...(job.lastFiredAt !== undefined ? { lastFiredAt: job.lastFiredAt } : {}),
      ...this.#next(job.cron, now),
      source: job.source,
    };
  }

  #next(cron: string, after: number): { nextFireAt?: number } {
    const next = nextFireAfter(cron, after);
    return next === undefined ? {} : { nextFireAt: next };
  }

  async create(args: {
    cron: string;
    prompt: string;
    recurring: boolean;
    durable: boolean;
  }): Promise<CronJob> {
    const now = this.clock.now();
    const next = nextFireAfter(args.cron, now);
    if (next === undefined)
      throw new SchedulerError(`"${args.cron}" never fires again; pick a time in the future.`);
    const job: CronJob = {
      id: `cron_${randomBytes(4).toString("hex")}`,
      cron: args.cron,
      prompt: args.prompt,
      recurring: args.recurring,
      durable: args.durable,
      createdAt: now,
      ...(args.recurring ? { expiresAt: now + RECURRING_EXPIRY_MS } : {}),
      nextFireAt: next,
      source: args.durable ? "keel" : "session",
    };
    if (args.durable) {
      const store = this.#options.store;
      if (!store)
        throw new SchedulerError(
          "This session has no project folder to keep durable jobs in; use durable: false.",
        );
      await updateDurableJobs(store, (file) => {
        if (file.tasks.length >= MAX_DURABLE_JOBS)
          throw new SchedulerError(
            `The project has ${MAX_DURABLE_JOBS} durable jobs already; delete one with CronDelete first.`,
          );
        file.tasks.push({
          id: job.id,
          cron: job.cron,
          prompt: job.prompt,
          recurring: job.recurring,
          createdAt: now,
        });
      });
    } else if ([...this.#jobs.values()].filter((entry) => !entry.durable).length >= MAX_SESSION_JOBS) {
      throw new SchedulerError(
        `This session has ${MAX_SESSION_JOBS} jobs already; delete one with CronDelete first.`,
      );
    }
    this.#jobs.set(job.id, job);
    this.#arm();
    return job;
  }

  list(): CronJob[] {
    return [...this.#jobs.values()].sort((a, b) => (a.nextFireAt ?? Infinity) - (b.nextFireAt ?? Infinity));
  }

  async delete(id: string): Promise<CronJob | undefined> {
    const job = this.#jobs.get(id);
    if (!job) return undefined;
    this.#jobs.delete(id);
    if (job.durable) await this.#forgetDurable(job);
    this.#arm();
    return job;
  }

  async #forgetDurable(job: CronJob): Promise<void> {
    const store = this.#options.store;
    if (!store) return;
    await updateDurableJobs(store, (file) => {
      file.tasks = file.tasks.filter((task) => task.id !== job.id);
      if (job.source === "claude") file.claude = { ...file.claude, [job.id]: { done: true } };
    });
  }

  get wakeup(): Wakeup | undefined {
    return this.#wakeup;
  }

  /** Sets the session's one wakeup (replacing any), `delaySeconds` clamped to 60-3600 s. */
  scheduleWakeup(args: {
    delaySeconds: number;
    reason: string;
    prompt: string;
  }): Wakeup & { delaySeconds: number } {
    const delaySeconds = Math.min(
      WAKEUP_MAX_SECONDS,
      Math.max(WAKEUP_MIN_SECONDS, Math.round(args.delaySeconds)),
    );
    this.#wakeup = { at: this.clock.now() + delaySeconds * 1000, reason: args.reason, prompt: args.prompt };
    this.#arm();
    return { ...this.#wakeup, delaySeconds };
  }

  cancelWakeup(): Wakeup | undefined {
    const cancelled = this.#wakeup;
    this.#wakeup = undefined;
    this.#arm();
    return cancelled;
  }

  /** Stops the timers (session end); durable jobs stay in the project. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) this.clock.clearTimer(this.#timer);
    this.#timer = undefined;
    this.#jobs.clear();
    this.#wakeup = undefined;
  }

  #arm(): void {
    if (this.#timer !== undefined) this.clock.clearTimer(this.#timer);
    this.#timer = undefined;
    if (this.#closed) return;
    const times = [...this.#jobs.values()].map((job) => job.nextFireAt ?? Infinity);
    if (this.#wakeup) times.push(this.#wakeup.at);
    const earliest = Math.min(...times);
    if (!Number.isFinite(earliest)) return;
    const wait = Math.min(MAX_TIMER_MS, Math.max(0, earliest - this.clock.now()));
    this.#timer = this.clock.setTimer(() => this.#tick(), wait);
  }

  #tick(): void {
    this.#timer = undefined;
    const now = this.clock.now();
    const wakeup = this.#wakeup;
    if (wakeup && wakeup.at <= now) {
      this.#wakeup = undefined;
      this.#options.fire({ prompt: wakeup.prompt, label: `Wakeup (ScheduleWakeup): ${wakeup.reason}` });
    }
    for (const job of [...this.#jobs.values()]) {
      if (job.nextFireAt === undefined || job.nextFireAt > now) continue;
      if (job.durable) void this.#fireDurable(job, job.nextFireAt);
      else this.#fireNow(job);
    }
    this.#arm();
  }

  /** Hands the prompt on, then moves the job to its next time or ends it. */
  #fireNow(job: CronJob, late?: string): void {
    const now = this.clock.now();
    job.lastFiredAt = now;
    const expired = job.recurring && job.expiresAt !== undefined && now >= job.expiresAt;
    const where = job.durable
      ? `durable job ${job.id}, kept in ${job.source === "claude" ? ".claude" : ".keel"}/scheduled_tasks.json; it fires while a Keel session is open in this project`
      : `job ${job.id} of this session`;
    const ending = !job.recurring
      ? " It was a one-shot job and is now deleted."
      : expired
        ? " Recurring jobs expire after 30 days: this was its last run, and it is now deleted."
        : "";
    this.#options.fire({
      prompt: `${job.prompt}\n\n(Scheduled prompt: cron "${job.cron}", ${where}${late ? `; fired late: ${late}` : ""}.${ending})`,
      label: `Scheduled prompt fired: ${job.id} ("${job.cron}")${late ? `, late: ${late}` : ""}`,
    });
    if (!job.recurring || expired) {
      this.#jobs.delete(job.id);
      if (job.durable) void this.#forgetDurable(job).catch(() => undefined);
      return;
    }
    Object.assign(job, this.#next(job.cron, now));
  }

  /** A durable job fires in the one session that notes the run in the project's file first. */
  async #fireDurable(job: CronJob, due: number, late?: string): Promise<void> {
    // Moved on at once, so the timer does not come back to this run while the file is being read.
    Object.assign(job, this.#next(job.cron, Math.max(due, this.clock.now())));
    const mine = await this.#claimDurable(job, due, this.clock.now()).catch(() => false);
    if (this.#closed) return;
    if (mine) {
      this.#fireNow(job, late);
      this.#arm();
      return;
    }
    // Another session fired it, or it was deleted there: take the file's word for what is left.
    this.#jobs.delete(job.id);
    const reread = this.#options.store
      ? readDurableJobs(this.#options.store).find((entry) => entry.id === job.id)
      : undefined;
    if (reread) this.#jobs.set(job.id, this.#fromDurable(reread));
    this.#arm();
  }

  /** Notes the fire in the project's file; false when another session has fired this run already. */
  async #claimDurable(job: CronJob, due: number, now: number): Promise<boolean> {
    const store = this.#options.store as DurableStore;
    return updateDurableJobs(store, (file) => {
      const own = file.tasks.find((task) => task.id === job.id);
      const last = job.source === "claude" ? file.claude?.[job.id]?.lastFiredAt : own?.lastFiredAt;
      // Deleted meanwhile, or this run (due at `due`) fired by another session already.
      if (job.source === "keel" && !own) return false;
      if (last !== undefined && last >= due) return false;
      if (job.source === "claude") file.claude = { ...file.claude, [job.id]: { lastFiredAt: now } };
      else if (own) own.lastFiredAt = now;
      return true;
    });
  }
}

export function schedulerOf(context: ToolUseContext): Scheduler | undefined {
  const value = (context.options as { scheduler?: unknown }).scheduler;
  return value !== null && typeof value === "object" && SCHEDULER in value ? (value as Scheduler) : undefined;
}
