/**
 * Topic `job-metadata`: changes to a job's metadata object. Key: the job key.
 * `job-metadata.merged` sets fields (a null value is stored, not deleted);
 * `job-metadata.field-deleted` removes one field.
 */
export const JOB_METADATA_TOPIC = 'job-metadata';

export const JOB_METADATA_MERGED = 'job-metadata.merged';
export interface JobMetadataMerged {
  job: string;
  fields: Record<string, unknown>;
}

export const JOB_METADATA_FIELD_DELETED = 'job-metadata.field-deleted';
export interface JobMetadataFieldDeleted {
  job: string;
  field: string;
}
