import { formatJobKey, JobKey } from '@crawlhub/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import { RecordKind, RECORD_KINDS, storedContribution } from '../../domain/record-kinds';
import { addToStats, countKeys } from '../../domain/stats-math';
import {
  JobRecordsView, JobScanQuery, JSON_LINES_PAGE_BYTES, RateBucket, RecordBatch, RecordPosition, RecordStats, ScanQuery, StagedChunk, StoredJsonLines, StoredRecord,
} from '../../ports/job-records.view';

const kindId = (k: RecordKind) => RECORD_KINDS.indexOf(k);

/** Records go in by up to this many rows per statement: one call into SQLite per 100 records, not one per record (800 parameters). */
const ROWS_PER_INSERT = 100;

function insertRows(rows: number): string {
  return `INSERT OR REPLACE INTO job_records (kind, project, spider, job, pos, ts, size, data) VALUES ${Array(rows).fill('(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`;
}

interface StatsRow {
  next_pos: number;
  input_values: number;
  input_bytes: number;
  counts: string;
}

@Injectable()
export class JobRecordsSqlite implements JobRecordsView {
  constructor(@Inject(SqliteViewDatabase) private readonly views: SqliteViewDatabase) {
    views.defineSchema(`
      CREATE TABLE IF NOT EXISTS job_records (
        kind INTEGER NOT NULL, project INTEGER NOT NULL, spider INTEGER NOT NULL, job INTEGER NOT NULL, pos INTEGER NOT NULL,
        ts INTEGER NOT NULL, size INTEGER NOT NULL, data TEXT NOT NULL,
        PRIMARY KEY (kind, project, spider, job, pos)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS job_record_stats (
        kind INTEGER NOT NULL, project INTEGER NOT NULL, spider INTEGER NOT NULL, job INTEGER NOT NULL,
        next_pos INTEGER NOT NULL, input_values INTEGER NOT NULL, input_bytes INTEGER NOT NULL, counts TEXT NOT NULL,
        PRIMARY KEY (kind, project, spider, job)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS job_record_longest (
        kind INTEGER NOT NULL, project INTEGER NOT NULL, spider INTEGER NOT NULL, job INTEGER NOT NULL, longest INTEGER NOT NULL,
        PRIMARY KEY (kind, project, spider, job)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS job_record_staging (
        upload TEXT NOT NULL, seq INTEGER NOT NULL, lines TEXT NOT NULL, sizes TEXT NOT NULL, counts TEXT NOT NULL,
        PRIMARY KEY (upload, seq)) WITHOUT ROWID;
    `);
  }

  async write(_at: LogPosition, batch: RecordBatch): Promise<void> {
    this.writeNow(batch);
  }

  private writeNow(batch: RecordBatch): void {
    const db = this.views.writer;
    const k = kindId(batch.kind);
    const { project, spider, job } = batch.job;
    const row = this.views
      .writerStatement('SELECT next_pos, input_values, input_bytes, counts FROM job_record_stats WHERE kind = ? AND project = ? AND spider = ? AND job = ?')
      .get(k, project, spider, job) as StatsRow | undefined;
    const nextPos = row?.next_pos ?? 0;
    const stats: RecordStats = row
      ? { inputValues: row.input_values, inputBytes: row.input_bytes, counts: JSON.parse(row.counts) }
      : { inputValues: 0, inputBytes: 0, counts: {} };
    // The job's longest record bounds the pages of its reads (scanJsonLines). A job whose
    // records were written before this table existed has stats but no row here: it gets
    // none, because a maximum over its later records alone would not bound the earlier ones.
    const longestSoFar = this.views
      .writerStatement('SELECT longest FROM job_record_longest WHERE kind = ? AND project = ? AND spider = ? AND job = ?')
      .pluck()
      .get(k, project, spider, job) as number | undefined;
    const start = batch.start ?? nextPos;
    const end = start + batch.lines.length;
    if (start < nextPos) {
      // An overwrite (a retried upload, usually): take the old records out of the stats first.
      const old = db
        .prepare('SELECT size, data FROM job_records WHERE kind = ? AND project = ? AND spider = ? AND job = ? AND pos >= ? AND pos < ?')
        .all(k, project, spider, job, start, end) as { size: number; data: string }[];
      const keys = old.map((o) => storedContribution(batch.kind, o.data).countKeys);
      addToStats(stats, old.length, old.reduce((a, o) => a + o.size, 0), countKeys(keys), -1);
    }
    let bytes = 0;
    let longest = longestSoFar ?? 0;
    for (let i = 0; i < batch.lines.length; i += ROWS_PER_INSERT) {
      const rows = Math.min(ROWS_PER_INSERT, batch.lines.length - i);
      const values: unknown[] = [];
      for (let r = i; r < i + rows; r++) {
        const line = batch.lines[r];
        values.push(k, project, spider, job, start + r, batch.ts, batch.sizes[r], line);
        bytes += batch.sizes[r];
        if (line.length > longest) longest = line.length;
      }
      this.views.writerStatement(insertRows(rows)).run(values);
    }
    if (row === undefined || longestSoFar !== undefined) {
      this.views
        .writerStatement('INSERT OR REPLACE INTO job_record_longest (kind, project, spider, job, longest) VALUES (?, ?, ?, ?, ?)')
        .run(k, project, spider, job, longest);
    }
    addToStats(stats, batch.lines.length, bytes, batch.counts, 1);
    this.views.writerStatement(
      `INSERT OR REPLACE INTO job_record_stats (kind, project, spider, job, next_pos, input_values, input_bytes, counts)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(k, project, spider, job, Math.max(nextPos, end), stats.inputValues, stats.inputBytes, JSON.stringify(stats.counts));
  }

  async stageChunk(_at: LogPosition, chunk: StagedChunk): Promise<void> {
    this.views.writer
      .prepare('INSERT OR REPLACE INTO job_record_staging (upload, seq, lines, sizes, counts) VALUES (?, ?, ?, ?, ?)')
      .run(chunk.upload, chunk.seq, chunk.lines.join('\n'), JSON.stringify(chunk.sizes), JSON.stringify(chunk.counts));
  }

  async commitUpload(_at: LogPosition, c: { upload: string; kind: RecordKind; job: JobKey; start: number | null; ts: number }): Promise<void> {
    const db = this.views.writer;
    const chunks = db.prepare('SELECT lines, sizes, counts FROM job_record_staging WHERE upload = ? ORDER BY seq').all(c.upload) as {
      lines: string;
      sizes: string;
      counts: string;
    }[];
    let start = c.start;
    for (const chunk of chunks) {
      const lines = chunk.lines.split('\n');
      this.writeNow({ kind: c.kind, job: c.job, start, lines, sizes: JSON.parse(chunk.sizes), counts: JSON.parse(chunk.counts), ts: c.ts });
      if (start !== null) start += lines.length;
    }
    db.prepare('DELETE FROM job_record_staging WHERE upload = ?').run(c.upload);
  }

  async abortUpload(_at: LogPosition, upload: string): Promise<void> {
    this.views.writer.prepare('DELETE FROM job_record_staging WHERE upload = ?').run(upload);
  }

  async scan(q: ScanQuery): Promise<StoredRecord[]> {
    const where = ['kind = ?', 'project = ?'];
    const args: number[] = [kindId(q.kind), q.project];
    if (q.spider !== undefined) {
      where.push('spider = ?');
      args.push(q.spider);
    }
    if (q.job !== undefined) {
      where.push('job = ?');
      args.push(q.job);
    }
    if (q.from) {
      const bound = lowerBound(q, q.from);
      if (bound === 'none') return [];
      if (bound) {
        where.push(bound.sql);
        args.push(...bound.args);
      }
    }
    if (q.positions) {
      if (q.positions.length === 0) return [];
      where.push(`pos IN (${q.positions.map(() => '?').join(',')})`);
      args.push(...q.positions);
    }
    args.push(q.limit);
    return this.views.reader
      .prepare(`SELECT spider, job, pos, ts, data AS json FROM job_records WHERE ${where.join(' AND ')} ORDER BY spider, job, pos LIMIT ?`)
      .all(...args) as StoredRecord[];
  }

  async scanJsonLines(q: JobScanQuery): Promise<StoredJsonLines | null> {
    const args = [kindId(q.kind), q.job.project, q.job.spider, q.job.job] as const;
    const limit = this.jsonLinesPageLimit(args, q.fromPos, q.limit);
    if (limit === 0) return null;
    // SQLite joins the page and hands it over as one BLOB: the stored UTF-8 bytes, no string
    // per record. The LIMIT keeps the subquery a co-routine, whose rows the aggregate takes
    // in its ORDER BY (an ORDER BY inside group_concat would sort the texts again: twice the
    // cost); the e2e read tests check the order across pages.
    const page = this.views.reader
      .prepare(
        `SELECT CAST(group_concat(data, char(10)) || char(10) AS BLOB) AS bytes, count(*) AS count, max(pos) AS lastPos
         FROM (SELECT pos, data FROM job_records WHERE kind = ? AND project = ? AND spider = ? AND job = ? AND pos >= ? ORDER BY pos LIMIT ?)`,
      )
      .get(...args, q.fromPos, limit) as StoredJsonLines;
    return page.count === 0 ? null : page;
  }

  /**
   * How many records from `fromPos` fit in a page of JSON_LINES_PAGE_BYTES (the first one
   * always); 0 when there is none. The job's longest record bounds every record's bytes (3
   * UTF-8 bytes at most per UTF-16 unit), which needs no look at the records themselves. A
   * job written before that bound was kept measures the page: a query that reads every
   * record's header, which cost a quarter of a plain read.
   */
  private jsonLinesPageLimit(job: readonly [number, number, number, number], fromPos: number, limit: number): number {
    const longest = this.views.reader
      .prepare('SELECT longest FROM job_record_longest WHERE kind = ? AND project = ? AND spider = ? AND job = ?')
      .pluck()
      .get(...job) as number | undefined;
    if (longest !== undefined) return Math.min(limit, Math.max(1, Math.floor(JSON_LINES_PAGE_BYTES / (3 * longest + 1))));
    const size = this.views.reader
      .prepare(
        `SELECT count(*) AS count, sum(len) AS total, max(len) AS largest
         FROM (SELECT octet_length(data) AS len FROM job_records WHERE kind = ? AND project = ? AND spider = ? AND job = ? AND pos >= ? ORDER BY pos LIMIT ?)`,
      )
      .get(...job, fromPos, limit) as { count: number; total: number; largest: number };
    if (size.count === 0) return 0;
    return size.total + size.count <= JSON_LINES_PAGE_BYTES ? limit : Math.max(1, Math.floor(JSON_LINES_PAGE_BYTES / (size.largest + 1)));
  }

  async stats(kind: RecordKind, job: JobKey): Promise<RecordStats | null> {
    const row = this.views.reader
      .prepare('SELECT input_values, input_bytes, counts FROM job_record_stats WHERE kind = ? AND project = ? AND spider = ? AND job = ?')
      .get(kindId(kind), job.project, job.spider, job.job) as StatsRow | undefined;
    return row ? { inputValues: row.input_values, inputBytes: row.input_bytes, counts: JSON.parse(row.counts) } : null;
  }

  async statsOfJobs(jobs: JobKey[]): Promise<Map<string, Partial<Record<RecordKind, RecordStats>>>> {
    const out = new Map<string, Partial<Record<RecordKind, RecordStats>>>();
    // SQLite binds at most 32,766 values: a page of 10,000 jobs is 30,000.
    for (let i = 0; i < jobs.length; i += 10_000) {
      const page = jobs.slice(i, i + 10_000);
      const rows = this.views.reader
        .prepare(`SELECT kind, project, spider, job, input_values, input_bytes, counts FROM job_record_stats WHERE (project, spider, job) IN (VALUES ${page.map(() => '(?, ?, ?)').join(', ')})`)
        .all(...page.flatMap((j) => [j.project, j.spider, j.job])) as (StatsRow & { kind: number; project: number; spider: number; job: number })[];
      for (const r of rows) {
        const key = formatJobKey(r);
        const byKind = out.get(key) ?? {};
        byKind[RECORD_KINDS[r.kind]] = { inputValues: r.input_values, inputBytes: r.input_bytes, counts: JSON.parse(r.counts) };
        out.set(key, byKind);
      }
    }
    return out;
  }

  async rates(kind: RecordKind, job: JobKey, bucketMs: number, minLevel?: number): Promise<RateBucket[]> {
    const level = minLevel === undefined ? '' : " AND json_extract(data, '$.level') >= ?";
    return this.views.reader
      // `%` works on integers (a bound JavaScript number is a REAL, which `/` would divide exactly).
      .prepare(`SELECT ts - ts % ? AS t, COUNT(*) AS n FROM job_records WHERE kind = ? AND project = ? AND spider = ? AND job = ?${level} GROUP BY t ORDER BY t`)
      .all(bucketMs, kindId(kind), job.project, job.spider, job.job, ...(minLevel === undefined ? [] : [minLevel])) as RateBucket[];
  }
}

/**
 * The scan's lower bound written on the columns the query leaves free: SQLite seeks by a
 * row-value bound only when no column of it is also fixed by equality.
 */
function lowerBound(q: ScanQuery, from: RecordPosition): { sql: string; args: number[] } | null | 'none' {
  if (q.spider === undefined) return { sql: '(spider, job, pos) >= (?, ?, ?)', args: [from.spider, from.job, from.pos] };
  if (from.spider !== q.spider) return from.spider < q.spider ? null : 'none';
  if (q.job === undefined) return { sql: '(job, pos) >= (?, ?)', args: [from.job, from.pos] };
  if (from.job !== q.job) return from.job < q.job ? null : 'none';
  return { sql: 'pos >= ?', args: [from.pos] };
}
