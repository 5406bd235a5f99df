import type { UsageStatsEntry } from '@crawlhub/wire';
import { addSample, Histogram, mergeInto, quantile } from './histogram';
import { formatTime, GroupBy, groupStart } from './time-buckets';
import type { UsageBucketPartial } from '@crawlhub/contracts';

/** One stored bucket of one user (the view's row): the partials of every process added up. */
export interface UsageBucketRow extends UsageBucketPartial {
  user: string;
}

/** An entry of GET /stats, fields in the original's order (its type is the wire's: the console reads it). */
export type { UsageStatsEntry };

/** The 80th percentile, as the spec asks for `concurrency` and `total_time`. */
export const PERCENTILE = 0.8;

/**
 * The buckets of one interval (a group, or the whole range), merged. Rows must come in
 * bucket order (the users of one bucket together): the concurrency of the users in each
 * second adds up, and each second with activity is one sample of the interval's
 * concurrency histogram.
 */
export class UsageGroup {
  clean = 0;
  failed = 0;
  ban = 0;
  traffic = 0;
  readonly times: Histogram = new Map();
  readonly concurrency: Histogram = new Map();
  /** The bucket whose seconds are being summed, and its seconds. */
  private bucket = Number.NaN;
  private readonly seconds = new Map<number, number>();

  constructor(readonly start: number) {}

  add(row: UsageBucketRow): void {
    this.clean += row.clean;
    this.failed += row.failed;
    this.ban += row.ban;
    this.traffic += row.traffic;
    mergeInto(this.times, row.times);
    if (row.start !== this.bucket) {
      this.sampleSeconds();
      this.bucket = row.start;
    }
    for (const [second, n] of row.concurrency) this.seconds.set(second, (this.seconds.get(second) ?? 0) + n);
  }

  private sampleSeconds(): void {
    for (const n of this.seconds.values()) addSample(this.concurrency, n);
    this.seconds.clear();
  }

  /** Bans are unsuccessful responses: `failed` counts them (compat-notes §3.1). */
  entry(): UsageStatsEntry {
    this.sampleSeconds();
    return {
      time_gte: formatTime(this.start),
      clean: this.clean,
      failed: this.failed + this.ban,
      concurrency: quantile(this.concurrency, PERCENTILE),
      total_time: quantile(this.times, PERCENTILE),
      traffic: this.traffic,
    };
  }
}

/**
 * Folds rows, ascending by bucket start, into groups ascending by start; stops once
 * `limit` groups are complete and a row of a further group shows up (`more`). The
 * caller feeds rows until `done`.
 */
export class Rollup {
  readonly groups: UsageGroup[] = [];
  more = false;

  constructor(private readonly groupBy: GroupBy, private readonly rangeStart: number, private readonly limit: number) {}

  get done(): boolean {
    return this.more;
  }

  /** Adds a row; false (and `more`) when it belongs to the group after the last one that fits. */
  add(row: UsageBucketRow): boolean {
    const start = groupStart(row.start, this.groupBy, this.rangeStart);
    let last = this.groups[this.groups.length - 1];
    if (!last || last.start !== start) {
      if (this.groups.length >= this.limit) {
        this.more = true;
        return false;
      }
      this.groups.push((last = new UsageGroup(start)));
    }
    last.add(row);
    return true;
  }
}

