import { Controller, Get, Inject, Optional, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canAccessProject } from '@crawlhub/access';
import { Clock, CLOCK } from '@crawlhub/contracts';
import { ApiError, formParams, RequestPrincipal } from '@crawlhub/http';
import { JOB_RECORDS_VIEW, JobRecordsView } from '@crawlhub/storage';
import { JobDoc, SpiderDoc } from '../../domain/job';
import { integer, jobFilter, jobKey, JobRecordCounts, jobRecordCounts, projectId, sendDash } from '../../http/jobs-request';
import { JobFilter } from '../../ports/jobs.view';
import { ListSpidersQuery } from '../get-spider/get-spider.query';
import { JobStateCounts } from '../job-state-counts/job-state-counts.handler';
import { JobStateCountsQuery } from '../job-state-counts/job-state-counts.query';
import { RUNNABLE_SPIDERS, RunnableSpiders } from '../../ports/runnable-spiders';
import { CountJobsQuery, ListJobsQuery } from '../list-jobs/list-jobs.query';
import type { DashJob } from '@crawlhub/wire';

/** Date-time without zone, as the dash lists show them. */
const dashTime = (ms: unknown) => (typeof ms === 'number' ? new Date(ms).toISOString().slice(0, 19) : undefined);

/** The dash job-control API's reads (form-encoded, JSON answers): list, count, spiders, projects. Its writes are use cases of commands/ (tag-jobs, cancel-jobs, update-jobs). */
@Controller()
export class DashJobsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly principals: RequestPrincipal,
    @Inject(JOB_RECORDS_VIEW) private readonly records: JobRecordsView,
    @Optional() @Inject(RUNNABLE_SPIDERS) private readonly runnable: RunnableSpiders | null,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** JobQ's filters (state, spider, has_tag, lacks_tag, startts, endts) with every state by default, and `job` keys. */
  private async filterOf(params: URLSearchParams, project: number): Promise<JobFilter> {
    const filter = await jobFilter(this.queries, project, params, []);
    if (params.getAll('job').length) filter.keys = params.getAll('job').map((k) => jobKey(k, project));
    return filter;
  }

  private entry(job: JobDoc, now: number, counts: JobRecordCounts): DashJob {
    return {
      id: job.key,
      spider: job.spider,
      state: job.state,
      priority: job.priority,
      tags: job.tags,
      version: job.meta.version ?? null,
      spider_type: job.meta.spider_type ?? 'manual',
      started_time: dashTime(job.meta.running_time ?? job.meta.pending_time),
      updated_time: dashTime(job.ts),
      elapsed: Math.max(0, now - job.ts),
      items_scraped: counts.items,
      responses_received: counts.pages,
      errors_count: counts.errors,
      logs: counts.logs,
      ...(job.state === 'finished' && job.meta.close_reason !== undefined ? { close_reason: job.meta.close_reason } : {}),
    };
  }

  @Get('jobs/list.json')
  async listJson(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { total, jobs } = await this.list(req);
    return sendDash(reply, { status: 'ok', count: jobs.length, total, jobs });
  }

  /** First a status line, then one job per line. */
  @Get('jobs/list.jl')
  async listJl(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { total, jobs } = await this.list(req);
    const lines = [JSON.stringify({ status: 'ok', count: jobs.length, total }), ...jobs.map((j) => JSON.stringify(j))];
    return reply.status(200).header('content-type', 'application/x-jsonlines').send(lines.join('\n') + '\n');
  }

  private async list(req: FastifyRequest) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    await this.principals.authorize(req, project);
    const filter = await this.filterOf(params, project);
    const page = { offset: integer(params, 'offset', 0, 0, Number.MAX_SAFE_INTEGER), limit: integer(params, 'count', 100, 0, 10_000) };
    const docs = await this.queries.execute<ListJobsQuery, JobDoc[]>(new ListJobsQuery(filter, page));
    const total = await this.queries.execute<CountJobsQuery, number>(new CountJobsQuery(filter));
    const now = this.clock.now();
    const counts = await jobRecordCounts(this.records, docs);
    return { total, jobs: docs.map((d) => this.entry(d, now, counts.get(d.key)!)) };
  }

  @Get('jobs/count.json')
  async count(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    await this.principals.authorize(req, project);
    const total = await this.queries.execute<CountJobsQuery, number>(new CountJobsQuery(await this.filterOf(params, project)));
    return sendDash(reply, { status: 'ok', total });
  }

  @Get('spiders/list.json')
  async spiders(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    await this.principals.authorize(req, project);
    // Deployed spiders carry the current version (they got their ids when it was deployed).
    const deployed = (await this.runnable?.current(project)) ?? null;
    const spiders = (await this.queries.execute<ListSpidersQuery, SpiderDoc[]>(new ListSpidersQuery(project))).map((s) => ({ version: deployed?.spiders.includes(s.name) ? deployed.version : null, tags: s.tags, id: s.name, type: 'manual' }));
    return sendDash(reply, { spiders, status: 'ok' });
  }

  @Get('scrapyd/listprojects.json')
  async projects(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await this.principals.of(req);
    if (!principal) throw new ApiError(401, 'Authentication failed');
    const projects = principal.admin ? (await this.queries.execute<JobStateCountsQuery, JobStateCounts>(new JobStateCountsQuery())).map((r) => r.project) : principal.projects;
    return sendDash(reply, { projects: projects.filter((p) => canAccessProject(principal, p)), status: 'ok' });
  }
}
