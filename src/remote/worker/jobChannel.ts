// One run of a job, as the worker talks to the parent: events out (in order, redacted with the worker's
// environment so its secrets stay on the worker), and the control stream read in the background
// (messages for the agent, answers to its questions, stop). A question waits for its answer at most
// `questionTimeoutMs`; then, or when the run ends, it is refused.
import type { Redis } from "ioredis";
import { createRedactor, type Redactor } from "../../audit/redact.ts";
import { describeDecider } from "../../permissions/types.ts";
import type { ApprovalAnswer, ApprovalRequest, Prompter } from "../../pipeline/services.ts";
import { randomBytes } from "../../tool/lazyCrypto.ts";
import {
  appendEvent,
  type ControlEvent,
  ControlEventSchema,
  readStream,
  type WorkerEvent,
} from "../channel.ts";

type Answer = Extract<ControlEvent, { type: "answer" }>;
type OutEvent = WorkerEvent extends infer E
  ? E extends { runId: string }
    ? Omit<E, "runId">
    : never
  : never;

export interface JobChannelOptions {
  /** Shared, non-blocking: every write of every job. */
  writer: Redis;
  /** This run's own connection for blocked reads of the control stream. */
  reader: Redis;
  keys: { events: string; control: string };
  runId: string;
  env: NodeJS.ProcessEnv;
  questionTimeoutMs: number;
  onMessage(text: string): void;
  onStop(reason: string): void;
  /** A write failed (Redis away): told once per run, for the worker's log. */
  onWriteError(message: string): void;
}

export class JobChannel {
  readonly redact: Redactor;
  readonly #options: JobChannelOptions;
  readonly #waiting = new Map<string, (answer: Answer | undefined) => void>();
  #closed = false;
  #writeFailed = false;
  #tail: Promise<void> = Promise.resolve();

  constructor(options: JobChannelOptions) {
    this.#options = options;
    this.redact = createRedactor(options.env);
  }

  /** Queues an event; events go out in the order they were emitted. */
  emit(event: OutEvent): Promise<void> {
    const full = this.redact({ ...event, runId: this.#options.runId }) as WorkerEvent;
    this.#tail = this.#tail.then(() =>
      appendEvent(this.#options.writer, this.#options.keys.events, full).catch((error: unknown) => {
        if (this.#writeFailed) return;
        this.#writeFailed = true;
        this.#options.onWriteError(String(error));
      }),
    );
    return this.#tail;
  }

  /** Reads the control stream until the run ends. Earlier runs' answers do not match this run's questions. */
  async listen(): Promise<void> {
    const { reader, keys } = this.#options;
    let lastId = "0";
    while (!this.#closed) {
      try {
        const read = await readStream(reader, keys.control, lastId, 1_000, ControlEventSchema);
        lastId = read.lastId;
        for (const { event } of read.entries) this.#dispatch(event);
      } catch {
        if (this.#closed) return;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }

  #dispatch(event: ControlEvent): void {
    if (event.type === "message") this.#options.onMessage(event.text);
    else if (event.type === "stop") this.#options.onStop(event.reason);
    else this.#waiting.get(event.id)?.(event);
  }

  /** Asks the parent; undefined when no answer came in time or the run ended. */
  async ask(
    question: { tool: string; input: unknown; message: string; decidedBy: string },
    signal: AbortSignal,
  ) {
    const id = `q_${randomBytes(6).toString("hex")}`;
    const answered = new Promise<Answer | undefined>((resolve) => {
      const timer = setTimeout(() => settle(undefined), this.#options.questionTimeoutMs);
      const onAbort = () => settle(undefined);
      const settle = (answer: Answer | undefined) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.#waiting.delete(id);
        resolve(answer);
      };
      this.#waiting.set(id, settle);
      signal.addEventListener("abort", onAbort, { once: true });
    });
    await this.emit({ type: "question", id, ...question });
    return answered;
  }

  /** The run is over: listening stops, open questions are refused. */
  close(): void {
    this.#closed = true;
    for (const settle of this.#waiting.values()) settle(undefined);
  }

  /** Writes still queued have gone out (or failed). */
  flushed(): Promise<void> {
    return this.#tail;
  }
}

/** Approvals on the worker go to the parent session's person; no answer in time is a refusal. */
export class ParentPrompter implements Prompter {
  readonly name = "the parent session";
  readonly #channel: JobChannel;
  readonly #timeoutMs: number;

  constructor(channel: JobChannel, timeoutMs: number) {
    this.#channel = channel;
    this.#timeoutMs = timeoutMs;
  }

  async ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
    const answer = await this.#channel.ask(
      {
        tool: request.tool.name,
        input: request.input,
        message: request.message,
        decidedBy: describeDecider(request.decision.decisionReason),
      },
      request.signal,
    );
    if (!answer)
      return {
        behavior: "deny",
        reason: `no answer from the parent session within ${Math.round(this.#timeoutMs / 1000)} s`,
      };
    if (answer.behavior === "allow") return { behavior: "allow", choice: "once" };
    return { behavior: "deny", reason: `${answer.by}${answer.reason ? `: ${answer.reason}` : ""}` };
  }
}
