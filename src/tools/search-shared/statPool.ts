// mtimes of many files read on worker threads: one statSync is ~1.5 µs of mostly syscall, so a
// 200,000-file Glob spends most of its time stat'ing; spread over cores it takes a fraction of that.
// (fs.stat through the libuv pool was measured 2-10x slower than a statSync loop: one callback per file.)
// Workers start on first use, live for the process, and hold it open only while a batch is out.

import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";

// Plain JavaScript, evaluated: no file to resolve, so it runs the same from src/ and from a build.
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { statSync } = require("node:fs");
parentPort.on("message", ({ id, text }) => {
  const paths = text.split("\\0");
  const mtimes = new Float64Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    try { mtimes[i] = statSync(paths[i], { throwIfNoEntry: false })?.mtimeMs ?? 0; } catch { mtimes[i] = 0; }
  }
  parentPort.postMessage({ id, mtimes }, [mtimes.buffer]);
});`;

interface Reply {
  id: number;
  mtimes: Float64Array;
}

interface Pending {
  resolve: (mtimes: Float64Array) => void;
  reject: (error: Error) => void;
}

class StatWorker {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #failed: Error | undefined;

  constructor() {
    // Required on first use: most processes never stat on a worker, and the module costs ~4 ms to load.
    const { Worker: WorkerThread } = createRequire(import.meta.url)(
      "node:worker_threads",
    ) as typeof import("node:worker_threads");
    this.#worker = new WorkerThread(WORKER_SOURCE, { eval: true });
    this.#worker.unref();
    this.#worker.on("message", (reply: Reply) => {
      const pending = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) this.#worker.unref();
      pending?.resolve(reply.mtimes);
    });
    const fail = (error: Error) => {
      this.#failed = error;
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
      this.#worker.unref();
    };
    this.#worker.on("error", fail);
    this.#worker.on("exit", () => fail(new Error("stat worker exited")));
  }

  get failed(): boolean {
    return this.#failed !== undefined;
  }

  stat(id: number, paths: readonly string[]): Promise<Float64Array> {
    if (this.#failed) return Promise.reject(this.#failed);
    return new Promise<Float64Array>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.ref();
      this.#worker.postMessage({ id, text: paths.join("\0") });
    });
  }
}

/** How many workers: the cores beyond the main thread, at most 3 (rg walks on the same cores). */
export const STAT_WORKERS = Math.max(0, Math.min(3, availableParallelism() - 1));

const workers: StatWorker[] = [];
let nextId = 0;

/**
 * mtimes (ms, 0 for a file gone or unreadable) of `paths`, on worker `slot` (0 <= slot < STAT_WORKERS).
 * Rejects (never throws) if the worker cannot start or died: the caller stats those paths itself.
 */
export function statOnWorker(slot: number, paths: readonly string[]): Promise<Float64Array> {
  let worker = workers[slot];
  if (!worker || worker.failed) {
    try {
      worker = new StatWorker();
    } catch (error) {
      // Workers can be unavailable (e.g. Node's permission model without --allow-worker).
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    workers[slot] = worker;
  }
  return worker.stat(++nextId, paths);
}
