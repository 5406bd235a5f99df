import type { GroupBy } from '../../domain/time-buckets';

/** GET /stats, its parameters checked. */
export class ReadStatsQuery {
  constructor(
    /** The users whose usage is summed; null: every user (admin only). */
    readonly users: string[] | null,
    /** Bucket starts in [from, to), ms. */
    readonly from: number,
    readonly to: number,
    readonly groupBy: GroupBy,
    readonly limit: number,
    /** The start of the last entry of the previous page (the decoded `after`), or null. */
    readonly after: number | null,
  ) {}
}
