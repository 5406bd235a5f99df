import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ApiError, FilterError, HttpSupportModule } from '@crawlhub/http';
import { ProjectionLagError, viewAdapter } from '@crawlhub/views';
import { JobMetadataMongo } from './adapters/mongodb/job-metadata.mongodb';
import { JobRecordsMongo } from './adapters/mongodb/job-records.mongodb';
import { JobMetadataSqlite } from './adapters/sqlite/job-metadata.sqlite';
import { JobRecordsSqlite } from './adapters/sqlite/job-records.sqlite';
import { JobMetadataController } from './commands/update-job-metadata/job-metadata.controller';
import { UpdateJobMetadataHandler } from './commands/update-job-metadata/update-job-metadata.handler';
import { WriteJobRecordsController } from './commands/write-job-records/write-job-records.controller';
import { WriteJobRecordsHandler } from './commands/write-job-records/write-job-records.handler';
import { JobMetadataProjection } from './events/job-metadata.projection';
import { JobRecordsProjection } from './events/job-records.projection';
import { SystemController } from './http/system.controller';
import { JOB_METADATA_VIEW } from './ports/job-metadata.view';
import { JOB_RECORDS_VIEW } from './ports/job-records.view';
import { JobRecordRatesController } from './queries/job-record-rates/job-record-rates.controller';
import { JobRecordRatesHandler } from './queries/job-record-rates/job-record-rates.handler';
import { JobRecordsStatsController } from './queries/job-records-stats/job-records-stats.controller';
import { JobRecordsStatsHandler } from './queries/job-records-stats/job-records-stats.handler';
import { ReadJobMetadataHandler } from './queries/read-job-metadata/read-job-metadata.handler';
import { ReadJobRecordsController } from './queries/read-job-records/read-job-records.controller';
import { ReadJobRecordsHandler } from './queries/read-job-records/read-job-records.handler';
import { JobFeeds } from './queries/stream-job-records/job-feeds';
import { StreamJobRecordsController } from './queries/stream-job-records/stream-job-records.controller';
import { FormatError } from '@crawlhub/http';

/** The projections and views of job data; needed by the storage API and by the projector. */
@Module({
  imports: [CqrsModule],
  providers: [
    viewAdapter(JOB_RECORDS_VIEW, { sqlite: JobRecordsSqlite, mongodb: JobRecordsMongo }),
    viewAdapter(JOB_METADATA_VIEW, { sqlite: JobMetadataSqlite, mongodb: JobMetadataMongo }),
    JobRecordsProjection,
    JobMetadataProjection,
  ],
  exports: [JOB_RECORDS_VIEW, JOB_METADATA_VIEW],
})
export class StorageViewsModule {}

/** The job-data write commands without HTTP: used by the storage API and by the runner. */
@Module({
  imports: [CqrsModule, StorageViewsModule],
  providers: [WriteJobRecordsHandler, UpdateJobMetadataHandler],
  exports: [StorageViewsModule],
})
export class StorageCommandsModule {}

/** The storage API on :8002 (job data part): items, logs, requests, stats, job metadata. */
@Module({
  imports: [CqrsModule, HttpSupportModule, StorageViewsModule, StorageCommandsModule],
  controllers: [SystemController, JobRecordsStatsController, JobRecordRatesController, WriteJobRecordsController, StreamJobRecordsController, ReadJobRecordsController, JobMetadataController],
  providers: [ReadJobRecordsHandler, JobRecordsStatsHandler, JobRecordRatesHandler, ReadJobMetadataHandler, JobFeeds],
})
export class StorageApiModule {}

/**
 * How errors of the storage context read in the storage API's plain-text style (a refused
 * JSON-lines body, IngestError, is `storageErrorFilter`'s own).
 */
export function storageErrorOf(e: unknown): ApiError | null {
  if (e instanceof FormatError) return new ApiError(e.status, e.message);
  if (e instanceof FilterError) return new ApiError(400, e.message);
  if (e instanceof ProjectionLagError) return ApiError.unavailable(e.message);
  return null;
}
