import { formatJobKey, JobKey } from '@crawlhub/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { AnyBulkWriteOperation, Collection, Filter, FindCursor } from 'mongodb';
import { LogPosition } from '@crawlhub/eventlog';
import { MongoViewDatabase } from '@crawlhub/views';
import { RecordKind, RECORD_KINDS, storedContribution } from '../../domain/record-kinds';
import { addToStats, countKeys } from '../../domain/stats-math';
import { JobRecordsView, JobScanQuery, JSON_LINES_PAGE_BYTES, RateBucket, RecordBatch, RecordStats, ScanQuery, StagedChunk, StoredJsonLines, StoredRecord } from '../../ports/job-records.view';

/**
 * Record ids are one string that sorts like (kind, project, spider, job, pos): the kind's
 * digit, then each number in base 36, fixed width 10 (ids go up to 15 decimal digits).
 * So the `_id` index is the compound unique key, and every scan is one `_id` range in
 * (spider, job, pos) order, with no secondary index and no `$or`.
 */
const WIDTH = 10;
const MAX = 36 ** WIDTH - 1;
const PAD = '0'.repeat(WIDTH);
/** Sorts after every digit of the encoding: the open end of a prefix range. */
const HIGH = '~';

function enc(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0 || n > MAX) throw new RangeError(`record coordinate out of range: ${n}`);
  const s = n.toString(36);
  return PAD.slice(s.length) + s;
}

/** Encoding of a lower bound: clamps below 0, and above the range sorts after every id. */
function encBound(n: number): string {
  if (n > MAX) return HIGH;
  return enc(Math.max(0, Math.ceil(n)));
}

/**
 * Record positions go up to 2^53 - 1 (MAX_POSITION), past the 10 digits of `enc`: a larger
 * one is written `{` and 11 digits. `{` sorts after every digit and before HIGH, so ids
 * keep their order and every id written before keeps its spelling.
 */
const LONG_POSITION = '{';
const LONG_PAD = '0'.repeat(WIDTH + 1);

function encPosition(n: number): string {
  if (n <= MAX) return enc(n);
  if (!Number.isSafeInteger(n)) throw new RangeError(`record position out of range: ${n}`);
  const s = n.toString(36);
  return LONG_POSITION + LONG_PAD.slice(s.length) + s;
}

function encPositionBound(n: number): string {
  if (n > Number.MAX_SAFE_INTEGER) return HIGH;
  return encPosition(Math.max(0, Math.ceil(n)));
}

const isPosition = (n: number) => Number.isSafeInteger(n) && n >= 0;

const kindId = (k: RecordKind) => RECORD_KINDS.indexOf(k);
const prefixOf = (kind: RecordKind, project: number) => `${kindId(kind)}${enc(project)}`;
const recordId = (kind: RecordKind, job: JobKey, pos: number) => `${prefixOf(kind, job.project)}${enc(job.spider)}${enc(job.job)}${encPosition(pos)}`;
const statsId = (kind: RecordKind, job: JobKey) => `${kind}/${job.project}/${job.spider}/${job.job}`;
const stagingId = (upload: string, seq: number) => `${upload}:${enc(seq)}`;
const stagingRange = (upload: string) => ({ $gte: `${upload}:`, $lt: `${upload};` });

interface RecordDoc {
  _id: string;
  s: number;
  j: number;
  n: number;
  ts: number;
  /** msgpack size, for input_bytes. */
  z: number;
  /** The record's JSON text: field order and big numbers survive as written. */
  d: string;
  _o: number;
}

interface StatsDoc {
  _id: string;
  next: number;
  v: number;
  b: number;
  /** counts as JSON text: keys are user field names (dots, `$`), and their order is kept. */
  c: string;
  _o: number;
  /** Where the event at `_o` started writing, to redo its records after a crash. */
  ls: number;
}

interface StagingDoc {
  _id: string;
  /** Lines joined by "\n" (compact JSON texts never hold a raw newline). */
  l: string;
  n: number;
  sizes: number[];
  b: number;
  c: string;
  _o: number;
}

/** Uploads that were committed or aborted: a chunk re-applied after a crash is not staged again. */
interface UploadDoc {
  _id: string;
  _o: number;
}

interface Lines {
  lines: string[];
  sizes: number[];
}

const BULK = 1000;
/** Bulk writes of one event in flight at once (they touch distinct ids). */
const PARALLEL = 4;

/**
 * Job records on MongoDB without transactions (see MongoProjectionStore). Each write event
 * updates the (kind, job) stats document first, stamped with the event's offset (`_o`) and
 * its start position, then its records. On re-apply the stats document tells what happened:
 * `_o` older: apply in full; `_o` equal: the stats are in, only (re)write the records, which
 * is idempotent; `_o` newer: a later event of the job already ran, so this one completed.
 * A job's events all live in one partition, so their offsets compare.
 */
@Injectable()
export class JobRecordsMongo implements JobRecordsView {
  private readonly ready: Promise<void>;

  constructor(@Inject(MongoViewDatabase) private readonly views: MongoViewDatabase) {
    // Every key is the `_id`: nothing but the collections' own unique `_id` indexes is needed.
    this.ready = views.defineIndexes(async () => undefined);
    this.ready.catch(() => undefined);
  }

  private get records(): Collection<RecordDoc> {
    return this.views.db.collection<RecordDoc>('job_records');
  }
  private get statsDocs(): Collection<StatsDoc> {
    return this.views.db.collection<StatsDoc>('job_record_stats');
  }
  private get staging(): Collection<StagingDoc> {
    return this.views.db.collection<StagingDoc>('job_record_staging');
  }
  private get uploads(): Collection<UploadDoc> {
    return this.views.db.collection<UploadDoc>('job_record_uploads');
  }

  async write(at: LogPosition, batch: RecordBatch): Promise<void> {
    await this.ready;
    const o = at.offset;
    const s = await this.statsDocs.findOne({ _id: statsId(batch.kind, batch.job) });
    if (s && s._o > o) return;
    if (s && s._o === o) {
      await this.putRecords(batch.kind, batch.job, s.ls, batch, batch.ts, o, Infinity);
      return;
    }
    const nextPos = s?.next ?? 0;
    const start = batch.start ?? nextPos;
    const stats = statsOf(s);
    await this.subtractOverwritten(stats, batch.kind, batch.job, start, start + batch.lines.length, nextPos);
    addToStats(stats, batch.lines.length, sum(batch.sizes), batch.counts, 1);
    await this.saveStats(batch.kind, batch.job, stats, Math.max(nextPos, start + batch.lines.length), o, start);
    await this.putRecords(batch.kind, batch.job, start, batch, batch.ts, o, nextPos);
  }

  async stageChunk(at: LogPosition, chunk: StagedChunk): Promise<void> {
    await this.ready;
    if (await this.uploads.findOne({ _id: chunk.upload })) return;
    const doc: StagingDoc = {
      _id: stagingId(chunk.upload, chunk.seq),
      l: chunk.lines.join('\n'),
      n: chunk.lines.length,
      sizes: chunk.sizes,
      b: sum(chunk.sizes),
      c: JSON.stringify(chunk.counts),
      _o: at.offset,
    };
    await this.staging.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }

  async commitUpload(at: LogPosition, c: { upload: string; kind: RecordKind; job: JobKey; start: number | null; ts: number }): Promise<void> {
    await this.ready;
    const o = at.offset;
    const inUpload = { _id: stagingRange(c.upload) };
    if (await this.uploads.findOne({ _id: c.upload })) {
      await this.staging.deleteMany(inUpload);
      return;
    }
    const chunks = await this.staging.find(inUpload, { projection: { n: 1, b: 1, c: 1 } }).sort({ _id: 1 }).toArray();
    const s = chunks.length ? await this.statsDocs.findOne({ _id: statsId(c.kind, c.job) }) : null;
    let start: number;
    let fresh: number;
    if (chunks.length === 0 || (s && s._o > o)) {
      start = fresh = 0;
    } else if (s && s._o === o) {
      start = s.ls;
      fresh = Infinity;
    } else {
      // Chunk by chunk, as one write each: the same stats (and count key order) as SQLite.
      const nextPos = s?.next ?? 0;
      const stats = statsOf(s);
      start = c.start ?? nextPos;
      let pos = start;
      for (const chunk of chunks) {
        await this.subtractOverwritten(stats, c.kind, c.job, pos, pos + chunk.n, nextPos);
        addToStats(stats, chunk.n, chunk.b, JSON.parse(chunk.c), 1);
        pos += chunk.n;
      }
      await this.saveStats(c.kind, c.job, stats, Math.max(nextPos, pos), o, start);
      fresh = nextPos;
    }
    if (chunks.length && !(s && s._o > o)) {
      let pos = start;
      for await (const chunk of this.staging.find(inUpload, { batchSize: 1 }).sort({ _id: 1 })) {
        const lines = chunk.n === 0 ? [] : chunk.l.split('\n');
        await this.putRecords(c.kind, c.job, pos, { lines, sizes: chunk.sizes }, c.ts, o, fresh);
        pos += lines.length;
      }
    }
    await this.finishUpload(c.upload, o);
  }

  async abortUpload(at: LogPosition, upload: string): Promise<void> {
    await this.ready;
    await this.finishUpload(upload, at.offset);
  }

  async scan(q: ScanQuery): Promise<StoredRecord[]> {
    const docs = await this.recordsOf(q);
    return docs === null ? [] : (await docs.toArray()).map(storedRecord);
  }

  /** The records a scan asks for, in (spider, job, pos) order, as a cursor; null when the query can match none. */
  private async recordsOf(q: ScanQuery): Promise<FindCursor<RecordDoc> | null> {
    await this.ready;
    if (q.limit <= 0 || (q.positions && q.positions.length === 0)) return null;
    // The longest id prefix the query fixes; the rest are filters.
    let prefix = prefixOf(q.kind, q.project);
    const filter: Filter<RecordDoc> = {};
    if (q.spider !== undefined) {
      if (!inRange(q.spider)) return null;
      prefix += enc(q.spider);
      if (q.job !== undefined) {
        if (!inRange(q.job)) return null;
        prefix += enc(q.job);
      }
    } else if (q.job !== undefined) {
      filter.j = q.job;
    }
    let low = prefix;
    if (q.from) {
      const from = `${prefixOf(q.kind, q.project)}${encBound(q.from.spider)}${encBound(q.from.job)}${encPositionBound(q.from.pos)}`;
      if (from > low) low = from;
    }
    if (q.positions && q.spider !== undefined && q.job !== undefined) {
      const job = { project: q.project, spider: q.spider, job: q.job };
      const ids = [...new Set(q.positions.filter(isPosition).map((p) => recordId(q.kind, job, p)))].filter((id) => id >= low);
      if (ids.length === 0) return null;
      filter._id = { $in: ids };
    } else {
      filter._id = { $gte: low, $lt: prefix + HIGH };
      if (q.positions) filter.n = { $in: q.positions };
    }
    return this.records
      .find(filter, { projection: { s: 1, j: 1, n: 1, ts: 1, d: 1 } })
      .sort({ _id: 1 })
      .limit(q.limit);
  }

  async scanJsonLines(q: JobScanQuery): Promise<StoredJsonLines | null> {
    const docs = await this.recordsOf({ kind: q.kind, project: q.job.project, spider: q.job.spider, job: q.job.job, from: { spider: q.job.spider, job: q.job.job, pos: q.fromPos }, limit: q.limit });
    if (docs === null) return null;
    // As many records as fit in JSON_LINES_PAGE_BYTES (the first always), like the SQLite
    // view: the cursor is left as soon as the next record would not fit, so a page of large
    // records never holds more than the bound in memory (plus one record).
    const texts: string[] = [];
    let bytes = 0;
    let lastPos = -1;
    try {
      for await (const d of docs) {
        const size = Buffer.byteLength(d.d) + 1;
        if (texts.length > 0 && bytes + size > JSON_LINES_PAGE_BYTES) break;
        texts.push(d.d);
        bytes += size;
        lastPos = d.n;
      }
    } finally {
      await docs.close();
    }
    return texts.length === 0 ? null : { bytes: Buffer.from(texts.join('\n') + '\n'), count: texts.length, lastPos };
  }

  async stats(kind: RecordKind, job: JobKey): Promise<RecordStats | null> {
    await this.ready;
    const s = await this.statsDocs.findOne({ _id: statsId(kind, job) });
    return s ? statsOf(s) : null;
  }

  async statsOfJobs(jobs: JobKey[]): Promise<Map<string, Partial<Record<RecordKind, RecordStats>>>> {
    await this.ready;
    const out = new Map<string, Partial<Record<RecordKind, RecordStats>>>();
    if (jobs.length === 0) return out;
    const ids = jobs.flatMap((job) => RECORD_KINDS.map((kind) => statsId(kind, job)));
    for (const s of await this.statsDocs.find({ _id: { $in: ids } }).toArray()) {
      const [kind, project, spider, job] = s._id.split('/');
      const key = formatJobKey({ project: Number(project), spider: Number(spider), job: Number(job) });
      const byKind = out.get(key) ?? {};
      byKind[kind as RecordKind] = statsOf(s);
      out.set(key, byKind);
    }
    return out;
  }

  async rates(kind: RecordKind, job: JobKey, bucketMs: number, minLevel?: number): Promise<RateBucket[]> {
    await this.ready;
    const prefix = `${prefixOf(kind, job.project)}${enc(job.spider)}${enc(job.job)}`;
    const match = { _id: { $gte: prefix, $lt: prefix + HIGH } };
    if (minLevel === undefined) {
      const buckets = await this.records
        .aggregate<{ _id: number; n: number }>([{ $match: match }, { $group: { _id: { $subtract: ['$ts', { $mod: ['$ts', bucketMs] }] }, n: { $sum: 1 } } }, { $sort: { _id: 1 } }])
        .toArray();
      return buckets.map((b) => ({ t: Number(b._id), n: b.n }));
    }
    // The level is inside the stored JSON text: read here, one log line at a time.
    const counts = new Map<number, number>();
    for await (const doc of this.records.find(match, { projection: { ts: 1, d: 1 } })) {
      if ((JSON.parse(doc.d) as { level: number }).level < minLevel) continue;
      const t = doc.ts - (doc.ts % bucketMs);
      counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    return [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([t, n]) => ({ t, n }));
  }

  /** Takes the records that [start, end) will overwrite out of the stats (only those below nextPos exist). */
  private async subtractOverwritten(stats: RecordStats, kind: RecordKind, job: JobKey, start: number, end: number, nextPos: number): Promise<void> {
    const top = Math.min(end, nextPos);
    if (start >= top) return;
    const old = await this.records
      .find({ _id: { $gte: recordId(kind, job, start), $lt: recordId(kind, job, top) } }, { projection: { z: 1, d: 1 } })
      .toArray();
    const keys = old.map((r) => storedContribution(kind, r.d).countKeys);
    addToStats(stats, old.length, old.reduce((a, r) => a + r.z, 0), countKeys(keys), -1);
  }

  private async saveStats(kind: RecordKind, job: JobKey, stats: RecordStats, next: number, o: number, ls: number): Promise<void> {
    const doc: StatsDoc = { _id: statsId(kind, job), next, v: stats.inputValues, b: stats.inputBytes, c: JSON.stringify(stats.counts), _o: o, ls };
    await this.statsDocs.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }

  /**
   * Writes records from `start` on, 1000 per unordered bulk write, a few in flight at once
   * (their ids all differ, so order does not matter).
   * Positions at or above `fresh` are known to hold nothing yet and are plain inserts;
   * the others replace whatever is there.
   */
  private async putRecords(kind: RecordKind, job: JobKey, start: number, batch: Lines, ts: number, o: number, fresh: number): Promise<void> {
    const inFlight = new Set<Promise<unknown>>();
    for (let i = 0; i < batch.lines.length; i += BULK) {
      const ops: AnyBulkWriteOperation<RecordDoc>[] = [];
      for (let k = i; k < Math.min(i + BULK, batch.lines.length); k++) {
        const pos = start + k;
        const doc: RecordDoc = { _id: recordId(kind, job, pos), s: job.spider, j: job.job, n: pos, ts, z: batch.sizes[k], d: batch.lines[k], _o: o };
        ops.push(pos >= fresh ? { insertOne: { document: doc } } : { replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } });
      }
      const w = this.records.bulkWrite(ops, { ordered: false });
      inFlight.add(w);
      w.then(() => inFlight.delete(w), () => undefined);
      if (inFlight.size >= PARALLEL) await Promise.race(inFlight).catch((err) => settleThenThrow(inFlight, err));
    }
    await Promise.all(inFlight).catch((err) => settleThenThrow(inFlight, err));
  }

  private async finishUpload(upload: string, o: number): Promise<void> {
    await this.uploads.updateOne({ _id: upload }, { $max: { _o: o } }, { upsert: true });
    await this.staging.deleteMany({ _id: stagingRange(upload) });
  }
}

/** Fails only once nothing is in flight any more, so a retry never races the failed attempt. */
async function settleThenThrow(inFlight: Set<Promise<unknown>>, err: unknown): Promise<never> {
  await Promise.allSettled(inFlight);
  throw err;
}

function statsOf(s: StatsDoc | null): RecordStats {
  return s ? { inputValues: s.v, inputBytes: s.b, counts: JSON.parse(s.c) } : { inputValues: 0, inputBytes: 0, counts: {} };
}

function sum(xs: number[]): number {
  let t = 0;
  for (const x of xs) t += x;
  return t;
}

function inRange(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0 && n <= MAX;
}

function storedRecord(d: RecordDoc): StoredRecord {
  return { spider: d.s, job: d.j, pos: d.n, ts: d.ts, json: d.d };
}
