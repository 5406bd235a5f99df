import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JOB_METADATA_VIEW, JobMetadataView } from '../../ports/job-metadata.view';
import { ReadJobMetadataQuery } from './read-job-metadata.query';

@QueryHandler(ReadJobMetadataQuery)
export class ReadJobMetadataHandler implements IQueryHandler<ReadJobMetadataQuery, Record<string, unknown> | null> {
  constructor(@Inject(JOB_METADATA_VIEW) private readonly view: JobMetadataView) {}

  execute(q: ReadJobMetadataQuery): Promise<Record<string, unknown> | null> {
    return this.view.get(q.job);
  }
}
