import { parseFilters } from '@crawlhub/http';
import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { mergeNewestFirst } from '../../domain/newest-first';
import { ACTIVITY_VIEW, ActivityPosition, ActivityView, compareActivity, StoredActivity } from '../../ports/activity.view';
import { ReadActivityQuery } from './read-activity.query';

const PAGE = 1000;

/** JSON texts of the results, page by page. */
export type ActivityTexts = AsyncIterable<string[]>;

type Keep = ReturnType<typeof parseFilters>;

/**
 * Newest first. One project: its pages as they come. Several: each project's newest
 * `pcount` matches, merged newest first, `count` in all. With a filter, `pcount` and
 * `count` limit the matches.
 */
@QueryHandler(ReadActivityQuery)
export class ReadActivityHandler implements IQueryHandler<ReadActivityQuery, ActivityTexts> {
  constructor(@Inject(ACTIVITY_VIEW) private readonly view: ActivityView) {}

  /** Bad parameters throw here, before the caller starts answering. */
  async execute(q: ReadActivityQuery): Promise<ActivityTexts> {
    const keep = parseFilters(q.filters);
    const projects = q.projects ?? (await this.view.projects());
    return this.texts(q, [...new Set(projects)], keep);
  }

  private async *texts(q: ReadActivityQuery, projects: number[], keep: Keep): AsyncGenerator<string[]> {
    const decorate = withMeta(q.meta);
    const cap = Math.min(q.perProject ?? Infinity, q.count ?? Infinity);
    if (projects.length === 1) {
      for await (const page of this.matches(projects[0], cap, keep)) yield page.map(decorate);
      return;
    }
    const sources = projects.map((p) => flatten(this.matches(p, cap, keep)));
    let left = q.count ?? Infinity;
    let out: string[] = [];
    for await (const m of mergeNewestFirst(sources, (a, b) => compareActivity(a, b) > 0)) {
      if (left-- <= 0) break;
      out.push(decorate(m));
      if (out.length >= PAGE) {
        yield out;
        out = [];
      }
    }
    if (out.length) yield out;
    await Promise.all(sources.map((s) => s.return?.(undefined)));
  }

  /** A project's messages newest first, filtered, at most `cap`, in pages. */
  private async *matches(project: number, cap: number, keep: Keep): AsyncGenerator<StoredActivity[]> {
    let left = cap;
    let before: ActivityPosition | undefined;
    while (left > 0) {
      const limit = keep ? PAGE : Math.min(PAGE, left);
      const page = await this.view.scan({ project, before, limit });
      const out = keep ? page.filter((m) => keep(JSON.parse(m.json) as Record<string, unknown>)).slice(0, left) : page;
      if (out.length) yield out;
      left -= out.length;
      if (page.length < limit) return;
      before = page[page.length - 1];
    }
  }
}

async function* flatten<T>(pages: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const page of pages) yield* page;
}

/** Appends the asked meta fields last: `_ts` (ms), then `_project`. */
function withMeta(meta: string[]): (m: StoredActivity) => string {
  const wantTs = meta.includes('_ts');
  const wantProject = meta.includes('_project');
  if (!wantTs && !wantProject) return (m) => m.json;
  return (m) => {
    const parts = [m.json.slice(1, -1)];
    if (wantTs) parts.push(`"_ts":${m.ts}`);
    if (wantProject) parts.push(`"_project":${m.project}`);
    return `{${parts.filter((p) => p !== '').join(',')}}`;
  };
}
