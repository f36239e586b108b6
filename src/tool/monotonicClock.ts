// Durations in a process that decides one call and ends. The global `performance` is built on first
// use, and with it perf_hooks (~0.7 ms of such a process) for a number process.hrtime gives as well.

/** Milliseconds since an arbitrary fixed point: only the difference of two readings means anything. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
