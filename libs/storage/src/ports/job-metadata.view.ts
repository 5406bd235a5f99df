import { LogPosition } from '@crawlhub/eventlog';
import { JobKey } from '../domain/job-key';

export const JOB_METADATA_VIEW = Symbol('JOB_METADATA_VIEW');

/** The metadata object of each job, fields in the order they were first set. */
export interface JobMetadataView {
  merge(at: LogPosition, job: JobKey, fields: Record<string, unknown>): Promise<void>;
  deleteField(at: LogPosition, job: JobKey, field: string): Promise<void>;
  get(job: JobKey): Promise<Record<string, unknown> | null>;
}
