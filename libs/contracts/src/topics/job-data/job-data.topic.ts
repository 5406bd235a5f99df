import { z } from 'zod';
import { defineTopic } from '../../topic-contract';

/**
 * Topic `job-data`: what a job writes (items, logs, requests). Key: the job key
 * `<project>/<spider>/<job>`, so one job's writes are ordered and owned by one partition.
 *
 * A body that fits in one event is `job-data.written`. A larger body is staged in
 * chunks and made visible at once by `job-data.upload-committed` (or dropped by
 * `job-data.upload-aborted`), so no write is ever half-applied.
 */
export const JOB_DATA_TOPIC = 'job-data';

const RECORD_KINDS = ['items', 'logs', 'requests', 'samples'] as const;
export type RecordKindName = (typeof RECORD_KINDS)[number];

const JOB_KEY = /^\d{1,15}\/\d{1,15}\/\d{1,15}$/;
export function isJobKey(key: string): boolean {
  return JOB_KEY.test(key);
}
/** A job key `<project>/<spider>/<job>`. */
export const JOB_KEY_DATA = z.string().regex(JOB_KEY, 'a job key <project>/<spider>/<job>');
const COUNT = z.number().int().nonnegative();
const UPLOAD_ID = z.string().min(1);

/** Stats contribution of the records carried in `lines` (one per record, compact JSON). */
const RECORD_BATCH_DATA = z.object({
  kind: z.enum(RECORD_KINDS),
  job: JOB_KEY_DATA,
  /** Position of the first record; null appends after the job's last record. */
  start: COUNT.nullable(),
  /** msgpack size of each record, for `totals.input_bytes`. */
  sizes: z.array(COUNT),
  /** field (or level) -> number of records of this batch having it. */
  counts: z.record(z.string(), COUNT),
});
export type RecordBatchData = z.infer<typeof RECORD_BATCH_DATA>;

export const JOB_DATA_WRITTEN = 'job-data.written';
export type JobDataWritten = RecordBatchData;

export const JOB_DATA_CHUNK_STAGED = 'job-data.chunk-staged';
const JOB_DATA_CHUNK_STAGED_DATA = RECORD_BATCH_DATA.omit({ start: true }).extend({ upload: UPLOAD_ID, seq: COUNT });
export type JobDataChunkStaged = z.infer<typeof JOB_DATA_CHUNK_STAGED_DATA>;

export const JOB_DATA_UPLOAD_COMMITTED = 'job-data.upload-committed';
const JOB_DATA_UPLOAD_COMMITTED_DATA = z.object({ upload: UPLOAD_ID, kind: z.enum(RECORD_KINDS), job: JOB_KEY_DATA, start: COUNT.nullable(), chunks: COUNT });
export type JobDataUploadCommitted = z.infer<typeof JOB_DATA_UPLOAD_COMMITTED_DATA>;

export const JOB_DATA_UPLOAD_ABORTED = 'job-data.upload-aborted';
const JOB_DATA_UPLOAD_ABORTED_DATA = z.object({ upload: UPLOAD_ID, job: JOB_KEY_DATA });
export type JobDataUploadAborted = z.infer<typeof JOB_DATA_UPLOAD_ABORTED_DATA>;

export const JOB_DATA_CONTRACT = defineTopic(
  [JOB_DATA_TOPIC],
  {
    [JOB_DATA_WRITTEN]: RECORD_BATCH_DATA,
    [JOB_DATA_CHUNK_STAGED]: JOB_DATA_CHUNK_STAGED_DATA,
    [JOB_DATA_UPLOAD_COMMITTED]: JOB_DATA_UPLOAD_COMMITTED_DATA,
    [JOB_DATA_UPLOAD_ABORTED]: JOB_DATA_UPLOAD_ABORTED_DATA,
  },
  (_type, d) => d.job,
);
