// `keel worker`: takes remote agent jobs from the queue, up to `concurrency` at once. BullMQ owns who
// runs what: a job is locked by the worker that took it while that worker renews the lock; a worker
// killed mid-job stops renewing, another worker's stalled-job check puts the job back in the queue
// (once; a second stall fails it), and the parent sees either the new run or the failure.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Job, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { LoadedSettings } from "../../settings/load.ts";
import { errorMessage } from "../../tool/errors.ts";
import { expireStreams, HEARTBEAT_MS, type RemoteResult, streamKeys } from "../channel.ts";
import type { RemoteQueueConfig } from "../config.ts";
import { closeRedis, connectRedis } from "../connection.ts";
import { parseRemoteJob } from "../job.ts";
import { RepoCache } from "./checkout.ts";
import { JobChannel } from "./jobChannel.ts";
import { JobSetupError, runRemoteJob } from "./runJob.ts";

export const DEFAULT_CONCURRENCY = 2;
export const DEFAULT_LOCK_MS = 30_000;
export const DEFAULT_QUESTION_TIMEOUT_MS = 10 * 60_000;

export interface WorkerOptions {
  config: RemoteQueueConfig;
  name: string;
  concurrency: number;
  /** The worker's folder: `repos/` (cached clones) and `jobs/` (one worktree per running job). */
  dir: string;
  maxRepos: number;
  /** How long a job stays locked without renewal; a killed worker's job is taken over after about twice this. */
  lockMs: number;
  questionTimeoutMs: number;
  settings: LoadedSettings;
  env: NodeJS.ProcessEnv;
  log(line: string): void;
  /** A connection already made (the command connects first, to fail fast before loading the agent). */
  writer?: Redis;
}

export interface RunningWorker {
  /** Takes no more jobs; `now` stops the running ones (reported to their parents as stopped). */
  close(now: boolean): Promise<void>;
  readonly activeJobs: number;
}

/** One worker per folder: a second one would remove the first one's worktrees as leftovers. */
function lockFolder(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "worker.pid");
  try {
    const pid = Number(readFileSync(file, "utf8").trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) {
      try {
        process.kill(pid, 0);
        throw new Error(
          `another keel worker (pid ${pid}) uses ${dir}; give this one its own folder with --dir`,
        );
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  writeFileSync(file, `${process.pid}\n`);
  return () => rmSync(file, { force: true });
}

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const { config, name, log, env } = options;
  const unlock = lockFolder(options.dir);
  let writer: Redis | undefined;
  try {
    writer = options.writer ?? (await connectRedis(config, { clientName: `keel-worker-${name}` }));
    const repos = new RepoCache({ dir: options.dir, maxRepos: options.maxRepos, env });
    const removed = await repos.removeLeftovers();
    if (removed > 0) log(`removed ${removed} job folder(s) left by an earlier run`);
    const running = new Map<string, AbortController>();
    const { Worker } = await import("bullmq");
    const processor = async (job: Job): Promise<RemoteResult> => {
      const controller = new AbortController();
      running.set(String(job.id), controller);
      try {
        return await processJob(job, controller.signal, { ...options, repos, writer: writer as Redis });
      } finally {
        running.delete(String(job.id));
      }
    };
    const worker: Worker = new Worker(config.name, processor, {
      connection: { url: config.url, connectionName: `keel-worker-${name}-bullmq` },
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: options.lockMs,
      maxStalledCount: 1,
      autorun: true,
    });
    let lastError = "";
    worker.on("error", (error) => {
      const message = errorMessage(error);
      if (message !== lastError) log(`queue error: ${message}`);
      lastError = message;
    });
    worker.on("failed", (job, error) => {
      if (job) log(`job ${job.id} failed: ${errorMessage(error)}`);
    });
    await worker.waitUntilReady();
    return {
      get activeJobs() {
        return running.size;
      },
      async close(now) {
        if (now)
          for (const controller of running.values()) controller.abort(new Error("the worker was shut down"));
        await worker.close();
        closeRedis(writer);
        unlock();
      },
    };
  } catch (error) {
    closeRedis(writer);
    unlock();
    throw error;
  }
}

interface ProcessContext extends WorkerOptions {
  repos: RepoCache;
  writer: Redis;
}

/** One run of one job: claimed, heartbeats, the agent, the final report; every path ends with a report. */
async function processJob(job: Job, signal: AbortSignal, context: ProcessContext): Promise<RemoteResult> {
  const { name, log, config } = context;
  const jobId = String(job.id);
  const runId = randomBytes(6).toString("hex");
  const keys = streamKeys(config.name, jobId);
  const reader = context.writer.duplicate();
  reader.on("error", () => {});
  await reader.connect().catch(() => {});
  const stopper = new AbortController();
  signal.addEventListener("abort", () => stopper.abort(signal.reason), { once: true });
  let controls: { send(text: string): void; stop(reason: string): void } | undefined;
  const pendingMessages: string[] = [];
  const channel = new JobChannel({
    writer: context.writer,
    reader,
    keys,
    runId,
    env: context.env,
    questionTimeoutMs: context.questionTimeoutMs,
    onMessage: (text) => (controls ? controls.send(text) : pendingMessages.push(text)),
    onStop: (reason) => stopper.abort(new Error(`stopped by the parent session (${reason})`)),
    onWriteError: (message) => log(`job ${jobId}: could not write to the queue: ${message}`),
  });
  const listening = channel.listen();
  const heartbeat = setInterval(() => void channel.emit({ type: "heartbeat" }), HEARTBEAT_MS);
  const attempt = job.attemptsStarted || 1;
  void channel.emit({ type: "claimed", worker: name, attempt });
  log(`job ${jobId} taken (attempt ${attempt})`);
  let result: RemoteResult;
  let setupError: string | undefined;
  try {
    const parsed = parseRemoteJob(job.data);
    if (!parsed.ok) throw new JobSetupError(parsed.problem);
    result = await runRemoteJob({
      job: parsed.job,
      runKey: `${jobId}-${runId}`,
      worker: name,
      repos: context.repos,
      channel,
      settings: context.settings,
      env: context.env,
      questionTimeoutMs: context.questionTimeoutMs,
      signal: stopper.signal,
      attach: (attached) => {
        controls = attached;
        for (const text of pendingMessages.splice(0)) attached.send(text);
      },
    });
  } catch (error) {
    setupError = errorMessage(error);
    result = {
      // Stopped while it was being set up (a fetch cut short): stopped, not broken.
      status: stopper.signal.aborted ? "stopped" : "failed",
      worker: name,
      report: `The remote agent could not run on worker ${name}: ${setupError}.`,
      detail: setupError,
      commits: 0,
      notes: [],
    };
  } finally {
    clearInterval(heartbeat);
  }
  await channel.emit({ type: "final", result });
  channel.close();
  await listening;
  await channel.flushed();
  await expireStreams(context.writer, keys).catch(() => {});
  closeRedis(reader);
  log(
    `job ${jobId} ${result.status}${result.branch ? `, branch ${result.branch} pushed` : ""}${result.detail ? `: ${result.detail}` : ""}`,
  );
  // A job that could not start fails in the queue too (its reason kept there); the report went out first.
  if (setupError) {
    const { UnrecoverableError } = await import("bullmq");
    throw new UnrecoverableError(setupError);
  }
  return result;
}
