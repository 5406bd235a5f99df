import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JOB_RECORDS_VIEW, JobRecordsView } from '../../ports/job-records.view';
import { JobRecordRatesQuery } from './job-record-rates.query';
import type { JobRecordRates } from '@crawlhub/wire';

@QueryHandler(JobRecordRatesQuery)
export class JobRecordRatesHandler implements IQueryHandler<JobRecordRatesQuery, JobRecordRates> {
  constructor(@Inject(JOB_RECORDS_VIEW) private readonly view: JobRecordsView) {}

  async execute(q: JobRecordRatesQuery): Promise<JobRecordRates> {
    const buckets = await this.view.rates(q.kind, q.job, q.bucketMs, q.minLevel);
    return { bucket: q.bucketMs / 1000, rates: buckets.map((b) => [b.t, b.n]) };
  }
}
