// Decision records held until the one who asked for a decision says it will use it: the decision server
// keeps a served request's records (audit log, telemetry) only once its client acknowledged the answer.
// A client that gave up and decided on its own writes its own record; the held one is dropped, so no
// call is recorded twice.
import type { AuditRecord, AuditSink } from "../pipeline/services.ts";

export type ClosableSink = AuditSink & { close(): void };

/** Wraps a command's decision log: the decision server holds its records (default: written at once). */
export type RecordHolder = (log: ClosableSink) => ClosableSink;

export interface HeldAuditSink extends ClosableSink {
  /** Writes what was held to the log, and closes it. */
  keep(): void;
  /** Forgets what was held, and closes the log. */
  drop(): void;
}

/** Holds the records given to `log` until keep() or drop(); its own close() waits for one of them. */
export function heldAuditSink(log: ClosableSink): HeldAuditSink {
  let held: AuditRecord[] = [];
  let settled = false;
  return {
    record: (entry) => {
      if (settled) log.record(entry);
      else held.push(entry);
    },
    close: () => {},
    keep() {
      if (settled) return;
      settled = true;
      const entries = held;
      held = [];
      try {
        for (const entry of entries) log.record(entry);
      } finally {
        log.close();
      }
    },
    drop() {
      if (settled) return;
      settled = true;
      held = [];
      log.close();
    },
  };
}
