/**
 * Time for the usage recorder: the clock that dates requests and samples, and the timer
 * that drives sampling and flushing. Injectable (USAGE_CLOCK), so tests drive both.
 */
export const USAGE_CLOCK = Symbol('USAGE_CLOCK');

export interface UsageClock {
  now(): number;
  /** Calls `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
}

/** Wall-clock time and unref'd intervals (they never keep a process alive). */
export const systemUsageClock: UsageClock = {
  now: () => Date.now(),
  every: (ms, fn) => {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** A clock for tests: time moves only with `advance`, which fires the timers that fall due, in time order. */
export class ManualUsageClock implements UsageClock {
  private timers: { ms: number; due: number; fn: () => void }[] = [];

  constructor(private time: number) {}

  now(): number {
    return this.time;
  }

  every(ms: number, fn: () => void): () => void {
    const timer = { ms, due: this.time + ms, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.due <= end).sort((a, b) => a.due - b.due)[0];
      if (!next) break;
      this.time = next.due;
      next.due += next.ms;
      next.fn();
    }
    this.time = end;
  }

  set(time: number): void {
    this.time = time;
  }
}
