import type { UsageBucketPartial } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import type { UsageBucketRow } from '../domain/usage-rollup';

export const PROXY_USAGE_VIEW = Symbol('PROXY_USAGE_VIEW');

/** Rows of one page: bucket starts in [from, to), after `after` in (start, user) order. */
export interface UsageScan {
  /** Only these users; null: every user. */
  users: string[] | null;
  from: number;
  to: number;
  /** Exclusive: the last row of the previous page. */
  after?: { start: number; user: string };
  limit: number;
}

/**
 * The proxy usage of every user in 5-minute buckets, merged from the partial aggregates
 * the proxy processes flush (`proxy-usage.recorded`). Written only by the projection.
 */
export interface ProxyUsageView {
  /**
   * Adds one user's partial buckets (counts and bytes add, histograms add bin by bin).
   * Applying an event twice changes nothing: each bucket remembers the offset of the last
   * event added to it, and a user's events come in order from one partition.
   */
  add(at: LogPosition, user: string, buckets: UsageBucketPartial[]): Promise<void>;
  /** Ascending by (start, user). */
  scan(q: UsageScan): Promise<UsageBucketRow[]>;
}
