// The MCP server writes a call's audit record just after the call's response has gone out, in the same
// turn of the event loop: redacting and writing the line no longer sits between a tool and its client.
// Nothing waits longer than that turn, and whatever is pending when the process exits is written then.
import type { AuditRecord, AuditSink } from "../pipeline/services.ts";

export interface DeferredAuditSink extends AuditSink {
  /** Writes what is pending now. */
  flush(): void;
}

const withPending = new Set<DeferredAuditSink>();
let exitHookInstalled = false;

function flushAllAtExit(): void {
  for (const sink of [...withPending]) sink.flush();
}

/** Queues each record and hands the queue to `inner` at setImmediate (after this turn's responses). */
export function deferredAuditSink(inner: AuditSink): DeferredAuditSink {
  let pending: AuditRecord[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  const sink: DeferredAuditSink = {
    record(entry) {
      pending.push(entry);
      if (scheduled) return;
      scheduled = setImmediate(() => sink.flush());
      withPending.add(sink);
      if (!exitHookInstalled) {
        exitHookInstalled = true;
        process.on("exit", flushAllAtExit);
      }
    },
    flush() {
      if (scheduled) clearImmediate(scheduled);
      scheduled = undefined;
      withPending.delete(sink);
      const entries = pending;
      pending = [];
      for (const entry of entries) {
        try {
          inner.record(entry);
        } catch {
          // As in the pipeline: a failing sink never fails anything else; it reports its own errors.
        }
      }
    },
  };
  return sink;
}
