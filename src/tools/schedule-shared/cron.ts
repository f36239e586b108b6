// Cron expressions as Claude Code's CronCreate takes them: five fields (minute hour day-of-month month
// day-of-week) in local time. Parsing and the next fire time are croner's; Keel only insists on five
// fields (croner would also take seconds, years and nicknames).
import { Cron } from "croner";

export type CronCheck = { ok: true } | { ok: false; message: string };

export function checkCron(expression: string): CronCheck {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 || fields[0] === "")
    return {
      ok: false,
      message: `"${expression}" has ${fields[0] === "" ? 0 : fields.length} fields; use 5: minute hour day-of-month month day-of-week (local time), e.g. "*/5 * * * *" or "30 14 28 2 *".`,
    };
  try {
    new Cron(expression, { paused: true });
    return { ok: true };
  } catch (error) {
    return {
      ok: false,
      message: `"${expression}" is not a valid cron expression: ${(error as Error).message}.`,
    };
  }
}

/** The first fire time strictly after `afterMs`, or undefined when the expression never fires again. */
export function nextFireAfter(expression: string, afterMs: number): number | undefined {
  const next = new Cron(expression, { paused: true }).nextRun(new Date(afterMs));
  return next ? next.getTime() : undefined;
}
