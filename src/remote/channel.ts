// The two Redis streams of one remote agent job, beside BullMQ's own keys: `events` (worker -> parent:
// claimed, progress, heartbeats, permission decisions, questions, the final report) and `control`
// (parent -> worker: messages, answers, stop). Streams keep what was said until it is read, so a
// parent that looks away (or a worker that takes the job over) misses nothing. Each stream holds at
// most MAX_STREAM_ENTRIES entries of at most MAX_ENTRY_CHARS, and expires STREAM_TTL_SECONDS after its
// last write (ENDED_TTL_SECONDS once the job has ended).
import type { Redis } from "ioredis";
import * as z from "zod";

export const MAX_STREAM_ENTRIES = 5_000;
export const MAX_ENTRY_CHARS = 64_000;
export const STREAM_TTL_SECONDS = 7 * 24 * 3600;
export const ENDED_TTL_SECONDS = 3600;
/** A worker says it is alive this often while it runs a job. */
export const HEARTBEAT_MS = 5_000;

export function streamKeys(queue: string, jobId: string): { events: string; control: string } {
  const base = `keel:${queue}:${jobId}`;
  return { events: `${base}:events`, control: `${base}:control` };
}

const runId = z.string().min(1).max(100);

/** The final outcome of one run of a job, as the worker reports it (and returns it to BullMQ). */
export const RemoteResultSchema = z.object({
  status: z.enum(["completed", "failed", "stopped"]),
  worker: z.string(),
  report: z.string(),
  /** Why it did not complete, in a line. */
  detail: z.string().optional(),
  /** The branch holding the agent's commits on the remote, when it was pushed. */
  branch: z.string().optional(),
  commits: z.number().int().nonnegative(),
  pushError: z.string().optional(),
  usageLine: z.string().optional(),
  notes: z.array(z.string()).default([]),
});
export type RemoteResult = z.infer<typeof RemoteResultSchema>;

export const WorkerEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("claimed"), runId, worker: z.string(), attempt: z.number().int() }),
  z.object({ type: z.literal("progress"), runId, text: z.string() }),
  z.object({ type: z.literal("heartbeat"), runId }),
  /** One permission decision on the worker: its audit record (redacted there). */
  z.object({
    type: z.literal("decision"),
    runId,
    worker: z.string(),
    record: z.record(z.string(), z.unknown()),
  }),
  /** A call on the worker needs a person: the parent asks its own and answers on the control stream. */
  z.object({
    type: z.literal("question"),
    runId,
    id: z.string().min(1).max(100),
    tool: z.string(),
    input: z.unknown(),
    message: z.string(),
    decidedBy: z.string(),
  }),
  z.object({ type: z.literal("final"), runId, result: RemoteResultSchema }),
]);
export type WorkerEvent = z.infer<typeof WorkerEventSchema>;

export const ControlEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("message"), text: z.string() }),
  z.object({ type: z.literal("stop"), reason: z.string() }),
  z.object({
    type: z.literal("answer"),
    id: z.string(),
    behavior: z.enum(["allow", "deny"]),
    by: z.string(),
    reason: z.string().optional(),
  }),
]);
export type ControlEvent = z.infer<typeof ControlEventSchema>;

/** Appends one event; an oversized one is cut (its text fields), never refused. */
export async function appendEvent(
  redis: Redis,
  key: string,
  event: WorkerEvent | ControlEvent,
): Promise<void> {
  let body = JSON.stringify(event);
  if (body.length > MAX_ENTRY_CHARS) body = JSON.stringify(shrink(event));
  await redis
    .multi()
    .call("XADD", key, "MAXLEN", "~", String(MAX_STREAM_ENTRIES), "*", "e", body)
    .expire(key, STREAM_TTL_SECONDS)
    .exec();
}

/** Long strings cut so the entry fits; the shape stays valid. */
function shrink<T>(event: T): T {
  const cut = (value: unknown): unknown => {
    if (typeof value === "string")
      return value.length > 4_000 ? `${value.slice(0, 4_000)}… [cut: ${value.length} characters]` : value;
    if (Array.isArray(value)) return value.slice(0, 100).map(cut);
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, cut(inner)]));
    return value;
  };
  return cut(event) as T;
}

export interface StreamEntry<T> {
  id: string;
  event: T;
}

/**
 * Reads what came after `afterId`, waiting up to `blockMs` (on a connection of its own: a blocked read
 * holds it). Entries that do not parse are skipped.
 */
export async function readStream<T>(
  redis: Redis,
  key: string,
  afterId: string,
  blockMs: number,
  schema: z.ZodType<T>,
): Promise<{ entries: StreamEntry<T>[]; lastId: string }> {
  const reply = (await redis.call(
    "XREAD",
    "COUNT",
    "200",
    "BLOCK",
    String(blockMs),
    "STREAMS",
    key,
    afterId,
  )) as Array<[string, Array<[string, string[]]>]> | null;
  const entries: StreamEntry<T>[] = [];
  let lastId = afterId;
  for (const [, items] of reply ?? [])
    for (const [id, fields] of items) {
      lastId = id;
      const at = fields.indexOf("e");
      const raw = at >= 0 ? fields[at + 1] : undefined;
      if (raw === undefined) continue;
      try {
        const parsed = schema.safeParse(JSON.parse(raw));
        if (parsed.success) entries.push({ id, event: parsed.data });
      } catch {
        // Not JSON: not ours.
      }
    }
  return { entries, lastId };
}

/** The job has ended: both streams go away within ENDED_TTL_SECONDS. */
export async function expireStreams(redis: Redis, keys: { events: string; control: string }): Promise<void> {
  await redis.multi().expire(keys.events, ENDED_TTL_SECONDS).expire(keys.control, ENDED_TTL_SECONDS).exec();
}
