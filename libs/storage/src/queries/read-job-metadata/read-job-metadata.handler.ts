import { Inject, Optional } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JOB_METADATA_VIEW, JobMetadataView } from '../../ports/job-metadata.view';
import { JOB_PLATFORM_METADATA, JobPlatformMetadata } from '../../ports/job-platform-metadata.port';
import { ReadJobMetadataQuery } from './read-job-metadata.query';

@QueryHandler(ReadJobMetadataQuery)
export class ReadJobMetadataHandler implements IQueryHandler<ReadJobMetadataQuery, Record<string, unknown> | null> {
  constructor(
    @Inject(JOB_METADATA_VIEW) private readonly view: JobMetadataView,
    @Optional() @Inject(JOB_PLATFORM_METADATA) private readonly platform: JobPlatformMetadata | null,
  ) {}

  /** The platform's fields first, then what clients wrote; null when neither exists. */
  async execute(q: ReadJobMetadataQuery): Promise<Record<string, unknown> | null> {
    const [platform, user] = await Promise.all([this.platform?.get(q.job) ?? null, this.view.get(q.job)]);
    return platform || user ? { ...(platform ?? {}), ...(user ?? {}) } : null;
  }
}
