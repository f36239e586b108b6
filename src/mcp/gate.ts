// Calls an MCP client sends at once follow the pipeline's rule: concurrency-safe calls run side by side,
// any other call runs alone. A waiting call that is cancelled stops waiting (the pipeline then reports it).
import type { ConcurrencyGate } from "../pipeline/services.ts";
import { safeFlag } from "../tool/Tool.ts";

interface Waiter {
  exclusive: boolean;
  start: () => void;
}

export function createReadWriteGate(): ConcurrencyGate {
  let shared = 0;
  let exclusive = false;
  const queue: Waiter[] = [];

  const pump = () => {
    while (queue.length > 0) {
      const next = queue[0]!;
      if (exclusive || (next.exclusive && shared > 0)) return;
      queue.shift();
      if (next.exclusive) exclusive = true;
      else shared++;
      next.start();
      if (next.exclusive) return;
    }
  };

  return (tool, input, signal) =>
    new Promise<() => void>((resolve) => {
      const isExclusive = !safeFlag(() => tool.isConcurrencySafe(input), false);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        if (isExclusive) exclusive = false;
        else shared--;
        pump();
      };
      const waiter: Waiter = {
        exclusive: isExclusive,
        start: () => {
          signal.removeEventListener("abort", onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const index = queue.indexOf(waiter);
        if (index === -1) return;
        queue.splice(index, 1);
        resolve(() => {});
        pump();
      };
      if (signal.aborted) {
        resolve(() => {});
        return;
      }
      signal.addEventListener("abort", onAbort, { once: true });
      queue.push(waiter);
      pump();
    });
}
