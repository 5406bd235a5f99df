/**
 * Topic `job-data`: what a job writes (items, logs, requests). Key: the job key
 * `<project>/<spider>/<job>`, so one job's writes are ordered and owned by one partition.
 *
 * A body that fits in one event is `job-data.written`. A larger body is staged in
 * chunks and made visible at once by `job-data.upload-committed` (or dropped by
 * `job-data.upload-aborted`), so no write is ever half-applied.
 */
export const JOB_DATA_TOPIC = 'job-data';

export type RecordKindName = 'items' | 'logs' | 'requests' | 'samples';

/** Stats contribution of the records carried in `lines` (one per record, compact JSON). */
export interface RecordBatchData {
  kind: RecordKindName;
  job: string;
  /** Position of the first record; null appends after the job's last record. */
  start: number | null;
  /** msgpack size of each record, for `totals.input_bytes`. */
  sizes: number[];
  /** field (or level) -> number of records of this batch having it. */
  counts: Record<string, number>;
}

export const JOB_DATA_WRITTEN = 'job-data.written';
export type JobDataWritten = RecordBatchData;

export const JOB_DATA_CHUNK_STAGED = 'job-data.chunk-staged';
export interface JobDataChunkStaged extends Omit<RecordBatchData, 'start'> {
  upload: string;
  seq: number;
}

export const JOB_DATA_UPLOAD_COMMITTED = 'job-data.upload-committed';
export interface JobDataUploadCommitted {
  upload: string;
  kind: RecordKindName;
  job: string;
  start: number | null;
  chunks: number;
}

export const JOB_DATA_UPLOAD_ABORTED = 'job-data.upload-aborted';
export interface JobDataUploadAborted {
  upload: string;
  job: string;
}

const JOB_KEY = /^\d{1,15}\/\d{1,15}\/\d{1,15}$/;
export function isJobKey(key: string): boolean {
  return JOB_KEY.test(key);
}
