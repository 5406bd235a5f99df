import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JsonLinesPage, parseFilters } from '@crawlhub/http';
import { withMeta } from '../../domain/record-meta';
import { JOB_RECORDS_VIEW, JobRecordsView, RecordPosition, StoredRecord } from '../../ports/job-records.view';
import { ReadJobRecordsQuery } from './read-job-records.query';

const PAGE = 5000;

/**
 * JSON texts of the results, page by page, so a million records stream in constant memory;
 * the plain read of a job comes as the stored bytes (JsonLinesPage).
 */
export type RecordTexts = AsyncIterable<string[] | JsonLinesPage>;

@QueryHandler(ReadJobRecordsQuery)
export class ReadJobRecordsHandler implements IQueryHandler<ReadJobRecordsQuery, RecordTexts> {
  constructor(@Inject(JOB_RECORDS_VIEW) private readonly view: JobRecordsView) {}

  /** Bad parameters throw here, before the caller starts answering. */
  async execute(q: ReadJobRecordsQuery): Promise<RecordTexts> {
    const keep = parseFilters(q.filters);
    const plainJobRead = q.spider !== undefined && q.job !== undefined && q.position === undefined && q.field === undefined
      && !keep && q.meta.length === 0 && !q.nodata && q.page.positions === undefined;
    return plainJobRead ? this.storedPages(q, q.spider!, q.job!) : this.texts(q, keep);
  }

  /** A job's records as the store keeps them, page by page, from the query's start. */
  private async *storedPages(q: ReadJobRecordsQuery, spider: number, job: number): AsyncGenerator<JsonLinesPage> {
    const from = later(q.page.from, q.page.after && { ...q.page.after, pos: q.page.after.pos + 1 });
    let fromPos = 0;
    if (from) {
      const cmp = from.spider - spider || from.job - job;
      if (cmp > 0) return; // the start is past this job
      if (cmp === 0) fromPos = from.pos;
    }
    let left = q.page.count ?? Infinity;
    while (left > 0) {
      const limit = Math.min(PAGE, left);
      const page = await this.view.scanJsonLines({ kind: q.kind, job: { project: q.project, spider, job }, fromPos, limit });
      if (page === null) return;
      yield new JsonLinesPage(page.bytes);
      left -= page.count;
      fromPos = page.lastPos + 1;
    }
  }

  private async *texts(q: ReadJobRecordsQuery, keep: ReturnType<typeof parseFilters>): AsyncGenerator<string[]> {
    const decorate = withMeta(q.kind, q.project, q.meta, q.nodata);
    // With a filter, `count` limits the matches, so pages are read until enough matched.
    let left = keep ? q.page.count ?? Infinity : Infinity;
    const source = keep ? this.pages({ ...q, page: { ...q.page, count: undefined } } as ReadJobRecordsQuery) : this.pages(q);
    for await (const page of source) {
      const out: string[] = [];
      for (const r of page) {
        if (keep) {
          if (left <= 0) break;
          if (!keep(JSON.parse(r.json) as Record<string, unknown>)) continue;
          left--;
        }
        if (q.field === undefined) out.push(decorate(r));
        else {
          const value = (JSON.parse(r.json) as Record<string, unknown>)[q.field];
          if (value !== undefined) out.push(JSON.stringify(value));
        }
      }
      if (out.length) yield out;
      if (left <= 0) return;
    }
  }

  private async *pages(q: ReadJobRecordsQuery): AsyncGenerator<StoredRecord[]> {
    const base = { kind: q.kind, project: q.project, spider: q.spider, job: q.job };
    if (q.position !== undefined) {
      yield await this.view.scan({ ...base, positions: [q.position], limit: 1 });
      return;
    }
    let left = q.page.count ?? Infinity;
    const positions = q.page.positions;
    let from: RecordPosition | undefined = later(q.page.from, q.page.after && { ...q.page.after, pos: q.page.after.pos + 1 });
    while (left > 0) {
      const page = await this.view.scan({ ...base, from, positions, limit: Math.min(PAGE, left) });
      if (page.length) yield page;
      left -= page.length;
      if (page.length < PAGE || positions) return;
      const last = page[page.length - 1];
      from = { spider: last.spider, job: last.job, pos: last.pos + 1 };
    }
  }
}

function later(a?: RecordPosition, b?: RecordPosition): RecordPosition | undefined {
  if (!a) return b;
  if (!b) return a;
  const cmp = a.spider - b.spider || a.job - b.job || a.pos - b.pos;
  return cmp >= 0 ? a : b;
}
