import { randomBytes, randomUUID } from 'node:crypto';

/**
 * Time and ids, as injectable ports (docs/DESIGN.md, "Time and ids"): every time or id
 * that ends up in an event, a fact, a view or an API answer comes from the CLOCK and the
 * IDS bound in the process (CoreModule binds the system ones; a test binds ManualClock and
 * SequentialIds and moves time itself instead of sleeping). Durations, local timeouts and
 * backoffs use `performance.now()` instead: they are no time of the platform's records.
 *
 * They live here, beside `createEvent`, because every lib stamps events and this lib
 * depends on no other.
 */
export const CLOCK = Symbol('CLOCK');

export interface Clock {
  /** Wall-clock time in milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
}

export const IDS = Symbol('IDS');

export interface Ids {
  /** A new RFC 4122 version 4 UUID. */
  uuid(): string;
  /** `bytes` new random bytes as lowercase hex (ids shorter than a UUID). */
  hex(bytes: number): string;
}

/** Wall-clock time and unref'd intervals (they never keep a process alive). */
export const systemClock: Clock = {
  now: () => Date.now(),
  every: (ms, fn) => {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

export const systemIds: Ids = {
  uuid: () => randomUUID(),
  hex: (bytes) => randomBytes(bytes).toString('hex'),
};

/** A clock for tests: time moves only with `advance` (or `set`); `advance` fires the timers that fall due, in time order. */
export class ManualClock implements Clock {
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

/** Ids for tests: well-formed and predictable, counting from 1 (`…-000000000001`, hex `…01`). */
export class SequentialIds implements Ids {
  private count = 0;

  uuid(): string {
    return `00000000-0000-4000-8000-${this.next().toString(16).padStart(12, '0')}`;
  }

  hex(bytes: number): string {
    return this.next().toString(16).padStart(bytes * 2, '0');
  }

  private next(): number {
    return ++this.count;
  }
}

/** What stamps a new event: its id and its time. */
export interface EventStamps {
  clock: Clock;
  ids: Ids;
}
