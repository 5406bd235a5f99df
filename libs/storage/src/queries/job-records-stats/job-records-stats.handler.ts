import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JOB_RECORDS_VIEW, JobRecordsView } from '../../ports/job-records.view';
import { JobRecordsStatsQuery } from './job-records-stats.query';
import type { JobRecordStats } from '@crawlhub/wire';

@QueryHandler(JobRecordsStatsQuery)
export class JobRecordsStatsHandler implements IQueryHandler<JobRecordsStatsQuery, JobRecordStats> {
  constructor(@Inject(JOB_RECORDS_VIEW) private readonly view: JobRecordsView) {}

  async execute(q: JobRecordsStatsQuery): Promise<JobRecordStats> {
    const s = await this.view.stats(q.kind, q.job);
    const counts: Record<string, number> = {};
    for (const [k, v] of Object.entries(s?.counts ?? {})) if (q.all || q.kind !== 'items' || !k.startsWith('_')) counts[k] = v;
    return { counts, totals: { input_bytes: s?.inputBytes ?? 0, input_values: s?.inputValues ?? 0 } };
  }
}
