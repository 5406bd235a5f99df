import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JOB_RECORDS_VIEW, JobRecordsView } from '../../ports/job-records.view';
import { JobRecordRatesQuery } from './job-record-rates.query';

export interface RatesBody {
  /** The bucket, seconds. */
  bucket: number;
  /** [start of the bucket (ms), records], oldest first; empty buckets left out. */
  rates: [number, number][];
}

@QueryHandler(JobRecordRatesQuery)
export class JobRecordRatesHandler implements IQueryHandler<JobRecordRatesQuery, RatesBody> {
  constructor(@Inject(JOB_RECORDS_VIEW) private readonly view: JobRecordsView) {}

  async execute(q: JobRecordRatesQuery): Promise<RatesBody> {
    const buckets = await this.view.rates(q.kind, q.job, q.bucketMs, q.minLevel);
    return { bucket: q.bucketMs / 1000, rates: buckets.map((b) => [b.t, b.n]) };
  }
}
