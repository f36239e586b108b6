// Whether this process sends what it records itself: set by the decision server with
// `keepTelemetryFlushed()` (it exits with process.exit, so an export in flight never holds it up; the
// agent and `keel mcp` end when their work ends and leave sending to a flusher process). Kept apart
// from flusher.ts so that saying so loads nothing of the telemetry code, which loads only when it is on.
let flushesItself = false;

/**
 * For a long-lived process that ends with process.exit: decisions it records are exported from this
 * process, a second later (with backoff while the collector is unreachable), instead of by a flusher
 * process; whatever is still waiting when it exits is left to one. The decision server calls this.
 */
export function keepTelemetryFlushed(): void {
  flushesItself = true;
}

export function flushesInThisProcess(): boolean {
  return flushesItself;
}
