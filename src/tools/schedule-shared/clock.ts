// The time the scheduler reads and the timers it sets, as one value: the system's in a session, one
// the test moves by hand in tests (no real waiting).
export interface Clock {
  now(): number;
  /** Calls `fire` after `ms`; the timer never keeps the process alive by itself. */
  setTimer(fire: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (fire, ms) => setTimeout(fire, ms).unref(),
  clearTimer: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/** A clock for tests: time moves only when `advance` is called, and timers due by then fire in order. */
export class ManualClock implements Clock {
  #now: number;
  #timers: Array<{ at: number; fire: () => void; id: number }> = [];
  #nextId = 1;

  constructor(start: number) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(fire: () => void, ms: number): unknown {
    const id = this.#nextId++;
    this.#timers.push({ at: this.#now + Math.max(0, ms), fire, id });
    return id;
  }

  clearTimer(timer: unknown): void {
    this.#timers = this.#timers.filter((entry) => entry.id !== timer);
  }

  /** Moves time on by `ms`, firing every timer that comes due, earliest first. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = this.#timers.filter((entry) => entry.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((entry) => entry !== due);
      this.#now = Math.max(this.#now, due.at);
      due.fire();
    }
    this.#now = end;
  }

  get pendingTimers(): number {
    return this.#timers.length;
  }
}
