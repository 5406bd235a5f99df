import type { WorkUsageEntry } from '@crawlhub/wire';

/** Interval widths the usage answers group by (as the proxy stats API names them; `max`: 5 minutes). */
export const USAGE_GROUPS = { max: 5 * 60_000, hour: 3_600_000, day: 86_400_000 } as const;
export type UsageGroup = keyof typeof USAGE_GROUPS;

/**
 * Counters per interval (UTC, aligned to the interval's width), oldest first: what the
 * fetch and extraction usage answers are made of, added event by event.
 */
export class UsageBuckets<C extends string> {
  private readonly buckets = new Map<number, Record<C, number>>();

  constructor(private readonly widthMs: number, private readonly counters: readonly C[]) {}

  add(at: number, counts: Partial<Record<C, number>>): void {
    const start = at - (at % this.widthMs);
    let bucket = this.buckets.get(start);
    if (!bucket) {
      bucket = Object.fromEntries(this.counters.map((c) => [c, 0])) as Record<C, number>;
      this.buckets.set(start, bucket);
    }
    for (const c of this.counters) bucket[c] += counts[c] ?? 0;
  }

  entries(): WorkUsageEntry<C>[] {
    return [...this.buckets.entries()].sort((a, b) => a[0] - b[0]).map(([start, counts]) => ({ time_gte: new Date(start).toISOString(), ...counts }));
  }
}
