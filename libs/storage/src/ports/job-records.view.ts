import { JobKey } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { RecordKind } from '../domain/record-kinds';

export const JOB_RECORDS_VIEW = Symbol('JOB_RECORDS_VIEW');

export interface RecordPosition {
  spider: number;
  job: number;
  pos: number;
}

export interface StoredRecord extends RecordPosition {
  /** When the upload batch holding the record was committed, ms. */
  ts: number;
  json: string;
}

export interface RecordStats {
  inputValues: number;
  inputBytes: number;
  counts: Record<string, number>;
}

/** How many records a job got in one time bucket: `t` its start (ms, a multiple of the bucket), `n` the records. */
export interface RateBucket {
  t: number;
  n: number;
}

export interface RecordBatch {
  kind: RecordKind;
  job: JobKey;
  /** null: append after the job's last record. */
  start: number | null;
  lines: string[];
  sizes: number[];
  counts: Record<string, number>;
  ts: number;
}

export interface StagedChunk extends Omit<RecordBatch, 'start' | 'ts'> {
  upload: string;
  seq: number;
}

export interface ScanQuery {
  kind: RecordKind;
  project: number;
  spider?: number;
  job?: number;
  /** Inclusive lower bound in (spider, job, pos) order. */
  from?: RecordPosition;
  /** Only these positions (job level). */
  positions?: number[];
  limit: number;
}

/** One job's records from a position on, in position order. */
export interface JobScanQuery {
  kind: RecordKind;
  job: JobKey;
  fromPos: number;
  limit: number;
}

/** A page of stored bytes holds at most about this many (its first record always, whatever its size). */
export const JSON_LINES_PAGE_BYTES = 8 * 1024 * 1024;

/** A page of stored records as bytes: each record's JSON text followed by `\n`. */
export interface StoredJsonLines {
  bytes: Buffer;
  count: number;
  lastPos: number;
}

/**
 * Items, logs and requests of every job, and their stats. The write side is called
 * only by the projection, with the log position of the event being applied.
 */
export interface JobRecordsView {
  write(at: LogPosition, batch: RecordBatch): Promise<void>;
  stageChunk(at: LogPosition, chunk: StagedChunk): Promise<void>;
  commitUpload(at: LogPosition, commit: { upload: string; kind: RecordKind; job: JobKey; start: number | null; ts: number }): Promise<void>;
  abortUpload(at: LogPosition, upload: string): Promise<void>;

  /** One page of records in (spider, job, pos) order. */
  scan(query: ScanQuery): Promise<StoredRecord[]>;
  /**
   * One page of a job's records as the bytes the store keeps (the plain read of a job: no
   * meta fields, no filter), so a read streams them without a string per record; null
   * when there is none. A page may hold fewer than `limit` records when they are large
   * (the store bounds its bytes): `count` says how many, `lastPos` where to go on.
   */
  scanJsonLines(query: JobScanQuery): Promise<StoredJsonLines | null>;
  stats(kind: RecordKind, job: JobKey): Promise<RecordStats | null>;
  /**
   * The stats of several jobs at once (a page of a job list: one read, not one per job and
   * kind), by job key `p/s/j` and kind; a job or kind without records is absent.
   */
  statsOfJobs(jobs: JobKey[]): Promise<Map<string, Partial<Record<RecordKind, RecordStats>>>>;
  /**
   * The job's records per `bucketMs` of their commit time (`_ts`), oldest first, buckets
   * without records left out. `minLevel` (logs only): only the lines at that level or above.
   */
  rates(kind: RecordKind, job: JobKey, bucketMs: number, minLevel?: number): Promise<RateBucket[]>;
}
