// The parent's watch over one remote agent job: it reads the job's event stream (progress into the task's
// output file, decisions into the parent's audit log with the worker's name, questions to the parent's
// prompter) and checks the job's state in the queue while nothing is said, so every way a job can end
// is reported: a final report, a failure BullMQ records (a worker killed too often), no worker taking
// the job within the claim timeout, a worker gone silent with nobody taking over, the queue lost.
import { appendFileSync } from "node:fs";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Prompter } from "../../pipeline/services.ts";
import type { BackgroundTaskEnd } from "../../shell/run/background.ts";
import type { ToolUseContext } from "../../tool/context.ts";
import { errorMessage } from "../../tool/errors.ts";
import type { Tool } from "../../tool/Tool.ts";
import {
  appendEvent,
  expireStreams,
  HEARTBEAT_MS,
  type RemoteResult,
  RemoteResultSchema,
  readStream,
  type WorkerEvent,
  WorkerEventSchema,
} from "../channel.ts";
import { closeRedis } from "../connection.ts";
import { type AuditSinkLike, auditRecordFromWorker } from "./workerAudit.ts";

/** How long a blocked read of the event stream waits; also how often the job's state is checked. */
const READ_BLOCK_MS = 1_000;
/** This many missed heartbeats make a worker silent. */
const SILENT_AFTER_MS = 6 * HEARTBEAT_MS;
/** After TaskStop, how long the worker has to confirm before the task ends as stopped anyway. */
const STOP_CONFIRM_MS = 10_000;

export interface MonitorArgs {
  jobId: string;
  queue: Queue;
  /** The connection the queue uses; a second one is made for blocked reads. */
  redis: Redis;
  keys: { events: string; control: string };
  claimTimeoutMs: number;
  sessionId: string;
  description: string;
  prompter?: Prompter;
  audit?: AuditSinkLike;
  /** The parent's context and pool: a question is asked as a call of the parent's tool of that name. */
  context: ToolUseContext;
  tools: readonly Tool[];
  /** Told the final result (the task notification, the agent's status); `stoppedHere`: TaskStop asked for it. */
  onEnd(result: RemoteResult, stoppedHere: boolean): void;
  /** Cleans up what the spawn left on the remote (the base ref). */
  cleanup(): Promise<string | undefined>;
}

interface CurrentRun {
  runId: string;
  worker: string;
}

export class RemoteAgentMonitor {
  readonly done: Promise<BackgroundTaskEnd>;
  #resolveDone: (end: BackgroundTaskEnd) => void = () => {};
  readonly #args: MonitorArgs;
  #outputPath = "";
  #run: CurrentRun | undefined;
  /** Some worker took the job before: a new claim is a takeover (from a lost or stalled run). */
  #claimedBefore = false;
  #lastHeard = Date.now();
  #claimDeadline: number;
  #silenceNoted = false;
  #stopRequested: { at: number; reason: string } | undefined;
  #ended = false;
  #reader: Redis | undefined;
  readonly #pendingQuestions = new Set<AbortController>();

  constructor(args: MonitorArgs) {
    this.#args = args;
    this.#claimDeadline = Date.now() + args.claimTimeoutMs;
    this.done = new Promise((resolve) => {
      this.#resolveDone = resolve;
    });
  }

  /** Starts watching; lines go to the task's output file. */
  start(outputPath: string): void {
    this.#outputPath = outputPath;
    void this.#watch().catch((error: unknown) =>
      this.#finish(this.#failed(`watching the job failed: ${errorMessage(error)}`)),
    );
  }

  get running(): boolean {
    return !this.#ended;
  }

  /** SendMessage: queued on the control stream; the worker hands it to the agent's next request. */
  async sendMessage(text: string): Promise<void> {
    await appendEvent(this.#args.redis, this.#args.keys.control, { type: "message", text });
  }

  /** TaskStop: a job still waiting is taken off the queue; a running one is asked to stop. */
  stop(reason: string): void {
    if (this.#ended || this.#stopRequested) return;
    this.#stopRequested = { at: Date.now(), reason };
    void (async () => {
      await appendEvent(this.#args.redis, this.#args.keys.control, { type: "stop", reason }).catch(() => {});
      if (!this.#run && (await this.#args.queue.remove(this.#args.jobId).catch(() => 0)) === 1)
        this.#finish({ ...this.#failed("stopped before a worker took it"), status: "stopped" });
    })();
  }

  #log(text: string): void {
    if (!this.#outputPath) return;
    try {
      appendFileSync(this.#outputPath, `${text}\n`);
    } catch {
      // The output file is for reading progress; losing a line must not stop the watch.
    }
  }

  async #watch(): Promise<void> {
    const reader = this.#args.redis.duplicate();
    reader.on("error", () => {});
    this.#reader = reader;
    let lastId = "0";
    let queueLostSince: number | undefined;
    await reader.connect().catch(() => {});
    while (!this.#ended) {
      try {
        const read = await readStream(
          reader,
          this.#args.keys.events,
          lastId,
          READ_BLOCK_MS,
          WorkerEventSchema,
        );
        lastId = read.lastId;
        for (const entry of read.entries) if (!this.#ended) this.#handle(entry.event);
        if (!this.#ended) await this.#checkState();
        queueLostSince = undefined;
      } catch (error) {
        if (this.#ended) break;
        queueLostSince ??= Date.now();
        if (Date.now() - queueLostSince > this.#args.claimTimeoutMs) {
          this.#finish(
            this.#failed(
              `lost the connection to the queue for over ${Math.round(this.#args.claimTimeoutMs / 1000)} s (${errorMessage(error)}); the job may still run, and its branch be pushed`,
            ),
          );
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, READ_BLOCK_MS));
      }
    }
  }

  #handle(event: WorkerEvent): void {
    if (event.type === "decision") {
      // Every decision is recorded, from whichever run made it: it happened.
      this.#args.audit?.record(
        auditRecordFromWorker(event.record, {
          sessionId: this.#args.sessionId,
          agentId: this.#args.jobId,
          worker: event.worker,
        }),
      );
      if (event.runId === this.#run?.runId && event.record.behavior === "deny")
        this.#log(
          `  ✗ ${String(event.record.tool)} refused on ${event.worker}: ${String(event.record.decidedBy)}`,
        );
      return;
    }
    if (event.type === "claimed") {
      this.#log(
        this.#claimedBefore
          ? `The job was taken over by worker ${event.worker} (attempt ${event.attempt}); it starts again from the base commit.`
          : `Worker ${event.worker} took the job (attempt ${event.attempt}).`,
      );
      this.#claimedBefore = true;
      this.#run = { runId: event.runId, worker: event.worker };
      this.#heard();
      return;
    }
    // What an earlier run still says after another took over is not this job's any more.
    if (event.runId !== this.#run?.runId) return;
    this.#heard();
    if (event.type === "progress") this.#log(event.text);
    else if (event.type === "question") void this.#answer(event);
    else if (event.type === "final") this.#finish(event.result);
  }

  #heard(): void {
    this.#lastHeard = Date.now();
    this.#silenceNoted = false;
  }

  /** The job's state in the queue, for what no event says: failed, done unseen, waiting too long, gone. */
  async #checkState(): Promise<void> {
    const { queue, jobId, claimTimeoutMs } = this.#args;
    const now = Date.now();
    if (this.#stopRequested && now - this.#stopRequested.at > STOP_CONFIRM_MS) {
      this.#finish({
        ...this.#failed(
          `stopped (${this.#stopRequested.reason}); the worker did not confirm within ${STOP_CONFIRM_MS / 1000} s`,
        ),
        status: "stopped",
      });
      return;
    }
    const state = await queue.getJobState(jobId);
    if (state === "completed" || state === "failed") {
      const job = await queue.getJob(jobId);
      const result = RemoteResultSchema.safeParse(job?.returnvalue);
      if (state === "completed" && result.success) return this.#finish(result.data);
      return this.#finish(
        this.#failed(`the queue reports the job failed: ${job?.failedReason || "no reason given"}`),
      );
    }
    if (state === "unknown")
      return this.#finish(this.#failed("the job is no longer in the queue (removed by someone?)"));
    if (state === "active") {
      const silent = now - this.#lastHeard;
      if (this.#run && silent > SILENT_AFTER_MS && !this.#silenceNoted) {
        this.#silenceNoted = true;
        this.#log(
          `No word from worker ${this.#run.worker} for ${Math.round(silent / 1000)} s; if it is gone, the queue hands the job to another worker once its lock expires.`,
        );
      }
      if (silent > SILENT_AFTER_MS + claimTimeoutMs) {
        await queue.remove(jobId).catch(() => 0);
        this.#finish(
          this.#failed(
            `worker ${this.#run?.worker ?? "(unknown)"} went silent ${Math.round(silent / 1000)} s ago and no other worker took the job over`,
          ),
        );
      }
      return;
    }
    // Waiting in the queue (again, when a worker was lost and the queue put the job back).
    if (this.#run) {
      this.#log(
        `Worker ${this.#run.worker} was lost (the queue found its job stalled); the job waits for another worker.`,
      );
      this.#run = undefined;
      this.#claimDeadline = now + claimTimeoutMs;
    }
    if (now > this.#claimDeadline && (await queue.remove(jobId).catch(() => 0)) === 1)
      this.#finish(
        this.#failed(
          `unclaimed: no worker took the job within ${Math.round(claimTimeoutMs / 1000)} s (is \`keel worker\` running for queue "${queue.name}"?); it was removed from the queue`,
        ),
      );
  }

  /** A call on the worker needs a person: the parent's prompter answers, as for a call of its own. */
  async #answer(event: Extract<WorkerEvent, { type: "question" }>): Promise<void> {
    const { prompter, context, tools, jobId } = this.#args;
    const worker = this.#run?.worker ?? "a worker";
    const controller = new AbortController();
    this.#pendingQuestions.add(controller);
    let answer: { behavior: "allow" | "deny"; by: string; reason?: string };
    try {
      const tool = tools.find((candidate) => candidate.name === event.tool);
      if (!prompter)
        answer = { behavior: "deny", by: "nobody", reason: "nobody can answer in the parent session" };
      else if (!tool)
        answer = {
          behavior: "deny",
          by: prompter.name,
          reason: `the parent session has no tool named ${event.tool}`,
        };
      else {
        const message = `Remote agent ${jobId} on worker ${worker}: ${event.message}`;
        const reply = await prompter.ask({
          tool,
          input: event.input,
          toolUseId: `${jobId}:${event.id}`,
          message,
          decision: { behavior: "ask", message, decisionReason: { type: "tool", reason: event.decidedBy } },
          suggestions: [],
          context,
          signal: controller.signal,
        });
        answer =
          reply.behavior === "allow"
            ? { behavior: "allow", by: prompter.name }
            : { behavior: "deny", by: prompter.name, ...(reply.reason ? { reason: reply.reason } : {}) };
      }
    } catch (error) {
      answer = {
        behavior: "deny",
        by: prompter?.name ?? "nobody",
        reason: `could not ask: ${errorMessage(error)}`,
      };
    } finally {
      this.#pendingQuestions.delete(controller);
    }
    if (this.#ended) return;
    await appendEvent(this.#args.redis, this.#args.keys.control, {
      type: "answer",
      id: event.id,
      ...answer,
    }).catch(() => {});
  }

  #failed(detail: string): RemoteResult {
    return {
      status: "failed",
      worker: this.#run?.worker ?? "(none)",
      report: `The remote agent did not finish: ${detail}.`,
      detail,
      commits: 0,
      notes: [],
    };
  }

  #finish(result: RemoteResult): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const question of this.#pendingQuestions) question.abort(new Error("the remote agent ended"));
    void this.#close(result);
  }

  async #close(result: RemoteResult): Promise<void> {
    const { redis, queue, keys } = this.#args;
    // A job that did not complete must not run later (a worker's stalled check could put it back).
    if (result.status !== "completed") await queue.remove(this.#args.jobId).catch(() => 0);
    const cleanupNote = await this.#args.cleanup().catch((error: unknown) => errorMessage(error));
    const final = cleanupNote ? { ...result, notes: [...result.notes, cleanupNote] } : result;
    this.#log(
      `\n--- Report of ${this.#args.jobId} (${final.status}, worker ${final.worker}) ---\n${reportText(final)}`,
    );
    await expireStreams(redis, keys).catch(() => {});
    // Closing must not wait on a Redis that is gone.
    await Promise.race([queue.close().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 2_000))]);
    closeRedis(this.#reader);
    closeRedis(redis);
    this.#args.onEnd(final, this.#stopRequested !== undefined);
    this.#resolveDone({
      status: final.status === "completed" ? "completed" : final.status === "stopped" ? "killed" : "failed",
      exitCode: null,
      ...(final.status === "failed" ? { exitNote: final.detail ?? "failed" } : {}),
    });
  }
}

/** The report as the parent reads it: the agent's text, then where its work is. */
export function reportText(result: RemoteResult): string {
  const lines = [result.report.trim() || "(the agent finished without a report)", ""];
  if (result.branch)
    lines.push(
      `Branch ${result.branch} was pushed to the remote (${result.commits} commit${result.commits === 1 ? "" : "s"}); fetch it to review or merge.`,
    );
  else if (result.status !== "failed" || result.commits > 0)
    lines.push(result.commits === 0 ? "The agent changed nothing, so no branch was pushed." : "");
  if (result.pushError) lines.push(`Pushing the branch failed: ${result.pushError}`);
  if (result.usageLine) lines.push(result.usageLine);
  for (const note of result.notes) lines.push(`Note: ${note}`);
  return lines
    .filter((line, index) => line !== "" || index === 1)
    .join("\n")
    .trim();
}
