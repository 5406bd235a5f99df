import type { ExtractionCompleted } from '@crawlhub/contracts';

/** One key's extraction usage on one day (UTC), from the `extraction.completed` events. */
export interface UsageRow {
  day: string;
  user: string;
  /** Queries done (each once, however often a takeover redid it). */
  queries: number;
  /** Those that count toward usage (the original's non-billable errors do not). */
  billable: number;
  /** Those answered with an error. */
  errors: number;
}

/**
 * Adds up usage per (day, key), oldest day first. A query done twice (a worker died after
 * finishing it) counts once: the first result, as the API answered.
 */
export class ExtractionUsage {
  private readonly seen = new Set<string>();
  private readonly rows = new Map<string, UsageRow>();

  add(done: ExtractionCompleted, occurredAt: number): void {
    if (this.seen.has(done.id)) return;
    this.seen.add(done.id);
    const day = new Date(occurredAt).toISOString().slice(0, 10);
    const key = `${day} ${done.user}`;
    const row = this.rows.get(key) ?? { day, user: done.user, queries: 0, billable: 0, errors: 0 };
    row.queries++;
    if (done.billable) row.billable++;
    if (done.error !== null) row.errors++;
    this.rows.set(key, row);
  }

  report(): UsageRow[] {
    return [...this.rows.values()].sort((a, b) => a.day.localeCompare(b.day) || a.user.localeCompare(b.user));
  }
}
