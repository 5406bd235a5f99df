import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { encodeCursor } from '../../domain/cursor';
import { nextGroupStart } from '../../domain/time-buckets';
import { Rollup, UsageBucketRow, UsageStatsEntry } from '../../domain/usage-rollup';
import { PROXY_USAGE_VIEW, ProxyUsageView } from '../../ports/proxy-usage.view';
import { ReadStatsQuery } from './read-stats.query';

/** The answer of GET /stats, fields in the original's order. */
export interface StatsPage {
  limit: number;
  after: string;
  results: UsageStatsEntry[];
}

const PAGE = 2000;

/**
 * Reads the users' buckets of the range in time order, page by page, and rolls them up
 * into at most `limit` entries (intervals without usage have no entry). `after` names the
 * last entry when more follow; the next page starts with the interval after it.
 */
@QueryHandler(ReadStatsQuery)
export class ReadStatsHandler implements IQueryHandler<ReadStatsQuery, StatsPage> {
  constructor(@Inject(PROXY_USAGE_VIEW) private readonly view: ProxyUsageView) {}

  async execute(q: ReadStatsQuery): Promise<StatsPage> {
    const rollup = new Rollup(q.groupBy, q.from, q.limit);
    const from = q.after === null ? q.from : Math.max(q.from, nextGroupStart(q.after, q.groupBy));
    if (Number.isFinite(from)) {
      let after: UsageBucketRow | undefined;
      for (;;) {
        const rows = await this.view.scan({ users: q.users, from, to: q.to, after, limit: PAGE });
        for (const r of rows) if (!rollup.add(r)) break;
        if (rollup.done || rows.length < PAGE) break;
        after = rows[rows.length - 1];
      }
    }
    const last = rollup.groups[rollup.groups.length - 1];
    return { limit: q.limit, after: rollup.more && last ? encodeCursor(last.start) : '', results: rollup.groups.map((g) => g.entry()) };
  }
}
