import { z } from 'zod';
import { defineTopic, JSON_OBJECT } from '../../topic-contract';
import { JOB_KEY_DATA } from '../job-data/job-data.topic';

/**
 * Topic `job-metadata`: changes to a job's metadata object. Key: the job key.
 * `job-metadata.merged` sets fields (a null value is stored, not deleted);
 * `job-metadata.field-deleted` removes one field.
 */
export const JOB_METADATA_TOPIC = 'job-metadata';

export const JOB_METADATA_MERGED = 'job-metadata.merged';
const JOB_METADATA_MERGED_DATA = z.object({ job: JOB_KEY_DATA, fields: JSON_OBJECT });
export type JobMetadataMerged = z.infer<typeof JOB_METADATA_MERGED_DATA>;

export const JOB_METADATA_FIELD_DELETED = 'job-metadata.field-deleted';
const JOB_METADATA_FIELD_DELETED_DATA = z.object({ job: JOB_KEY_DATA, field: z.string() });
export type JobMetadataFieldDeleted = z.infer<typeof JOB_METADATA_FIELD_DELETED_DATA>;

export const JOB_METADATA_CONTRACT = defineTopic(
  [JOB_METADATA_TOPIC],
  { [JOB_METADATA_MERGED]: JOB_METADATA_MERGED_DATA, [JOB_METADATA_FIELD_DELETED]: JOB_METADATA_FIELD_DELETED_DATA },
  (_type, d) => d.job,
);
