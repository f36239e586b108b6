// How scheduled jobs read to the model: one line each, times in local time.

import type { ToolUseContext } from "../../tool/context.ts";
import { ToolError } from "../../tool/errors.ts";
import { type CronJob, type Scheduler, SchedulerError, schedulerOf } from "./scheduler.ts";

export function localTime(ms: number | undefined): string {
  return ms === undefined ? "never" : new Date(ms).toLocaleString();
}

export function jobLine(job: CronJob): string {
  const kind = job.recurring ? "recurring" : "one-shot";
  const where = job.durable
    ? `durable (${job.source === "claude" ? ".claude" : ".keel"}/scheduled_tasks.json)`
    : "this session";
  const expiry = job.expiresAt !== undefined ? `, expires ${localTime(job.expiresAt)}` : "";
  return `${job.id}  "${job.cron}"  ${kind}, ${where}, next ${localTime(job.nextFireAt)}${expiry}: ${clip(job.prompt, 120)}`;
}

function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** The session's scheduler, or the error a model can act on. */
export function requireScheduler(context: ToolUseContext): Scheduler {
  const scheduler = schedulerOf(context);
  if (!scheduler)
    throw new ToolError(
      "no_agent_loop",
      "Scheduled prompts need a Keel agent session (keel, keel run); this call came from elsewhere.",
    );
  return scheduler;
}

/** A scheduler refusal as the model's error. */
export async function schedulerCall<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SchedulerError) throw new ToolError("not_allowed", error.message);
    throw error;
  }
}
