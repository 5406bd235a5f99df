import type { UsageBucketPartial } from '@crawlhub/contracts';
import { addSample, Histogram, mergeInto, toPairs } from './histogram';
import { bucketOf } from './time-buckets';

/** Concurrency is kept per second of the bucket. */
export const SECOND_MS = 1000;

export type UsageOutcome = 'clean' | 'failed' | 'ban';

interface Partial {
  clean: number;
  failed: number;
  ban: number;
  traffic: number;
  times: Histogram;
  /** second of the bucket -> peak in flight (this process). */
  concurrency: Map<number, number>;
}

const empty = (): Partial => ({ clean: 0, failed: 0, ban: 0, traffic: 0, times: new Map(), concurrency: new Map() });

/**
 * What one proxy process has seen since its last flush, per (user, 5-minute bucket).
 * Memory is bounded by the users active between two flushes (a bucket or two each),
 * never by the number of requests.
 */
export class UsageAggregator {
  private readonly users = new Map<string, Map<number, Partial>>();

  private partial(user: string, at: number): Partial {
    let buckets = this.users.get(user);
    if (!buckets) this.users.set(user, (buckets = new Map()));
    const start = bucketOf(at);
    let p = buckets.get(start);
    if (!p) buckets.set(start, (p = empty()));
    return p;
  }

  /** A request ended at `at` (ms). */
  request(user: string, outcome: UsageOutcome, bytes: number, timeMs: number, at: number): void {
    const p = this.partial(user, at);
    p[outcome]++;
    p.traffic += Number.isFinite(bytes) && bytes > 0 ? Math.round(bytes) : 0;
    addSample(p.times, timeMs);
  }

  /** A concurrency sample of `user` taken at `at`: the second it falls in keeps its highest sample. */
  concurrency(user: string, value: number, at: number): void {
    if (!(value > 0)) return;
    const seconds = this.partial(user, at).concurrency;
    const second = Math.floor((at - bucketOf(at)) / SECOND_MS);
    if (value > (seconds.get(second) ?? 0)) seconds.set(second, Math.round(value));
  }

  get empty(): boolean {
    return this.users.size === 0;
  }

  /** Everything aggregated so far, per user (buckets ascending); the aggregator is empty afterwards. */
  drain(): Map<string, UsageBucketPartial[]> {
    const out = new Map<string, UsageBucketPartial[]>();
    for (const [user, buckets] of this.users) {
      const list = [...buckets.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([start, p]) => ({ start, clean: p.clean, failed: p.failed, ban: p.ban, traffic: p.traffic, times: toPairs(p.times), concurrency: toPairs(p.concurrency) }));
      out.set(user, list);
    }
    this.users.clear();
    return out;
  }

  /** Puts drained partials back (their flush failed): they go out with the next one. */
  restore(drained: Map<string, UsageBucketPartial[]>): void {
    for (const [user, list] of drained) {
      for (const b of list) {
        const p = this.partial(user, b.start);
        p.clean += b.clean;
        p.failed += b.failed;
        p.ban += b.ban;
        p.traffic += b.traffic;
        mergeInto(p.times, b.times);
        for (const [second, peak] of b.concurrency) if (peak > (p.concurrency.get(second) ?? 0)) p.concurrency.set(second, peak);
      }
    }
  }
}

/**
 * Requests in flight per user, and the peak of each user since the last sampling tick:
 * a sample is that peak, so a request shorter than the tick is still seen. Users with
 * nothing in flight and nothing started since the last tick give no sample (idle time
 * does not drag the percentile down).
 */
export class ConcurrencyTracker {
  private readonly inFlight = new Map<string, number>();
  private readonly peak = new Map<string, number>();

  started(user: string): void {
    const n = (this.inFlight.get(user) ?? 0) + 1;
    this.inFlight.set(user, n);
    if (n > (this.peak.get(user) ?? 0)) this.peak.set(user, n);
  }

  finished(user: string): void {
    const n = (this.inFlight.get(user) ?? 0) - 1;
    if (n > 0) this.inFlight.set(user, n);
    else this.inFlight.delete(user);
  }

  current(user: string): number {
    return this.inFlight.get(user) ?? 0;
  }

  /** The samples of this tick ([user, peak]); the next tick starts from what is in flight now. */
  tick(): [string, number][] {
    const samples = [...this.peak.entries()];
    this.peak.clear();
    for (const [user, n] of this.inFlight) this.peak.set(user, n);
    return samples;
  }
}
