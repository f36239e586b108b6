// Audit records held until the one who asked for a decision says it will use it: the decision server
// keeps a served request's records only once its client acknowledged the answer. A client that gave up
// and decided on its own writes its own record; the held one is dropped, so no call is recorded twice.
import type { AuditRecord, AuditSink } from "../pipeline/services.ts";
import type { JsonlAuditSinkOptions } from "./jsonlSink.ts";

/** Opens the audit sink a command writes to (default: a JsonlAuditSink with these options). */
export type AuditOpener = (options: JsonlAuditSinkOptions) => AuditSink & { close(): void };

export interface HeldAuditSink extends AuditSink {
  /** Writes what was held, through the sink `open` makes, and closes it. */
  keep(): void;
  /** Forgets what was held. */
  drop(): void;
}

export function heldAuditSink(open: () => AuditSink & { close(): void }): HeldAuditSink {
  let held: AuditRecord[] = [];
  return {
    record: (entry) => void held.push(entry),
    keep() {
      const entries = held;
      held = [];
      if (entries.length === 0) return;
      const sink = open();
      try {
        for (const entry of entries) sink.record(entry);
      } finally {
        sink.close();
      }
    },
    drop() {
      held = [];
    },
  };
}
