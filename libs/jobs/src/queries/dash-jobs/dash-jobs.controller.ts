import { Controller, Get, Inject, Optional, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canAccessProject } from '@crawlhub/access';
import { actorOf, ApiError, formParams, RequestPrincipal } from '@crawlhub/http';
import { JOB_RECORDS_VIEW, JobRecordsView } from '@crawlhub/storage';
import { JobsOutcome } from '../../domain/decide-jobs';
import { JobDoc } from '../../domain/job';
import { integer, jobFilter, jobKey, JobRecordCounts, jobRecordCounts, projectId, sendDash } from '../../http/jobs-request';
import { JOBS_VIEW, JobFilter, JobsView } from '../../ports/jobs.view';
import { RUNNABLE_SPIDERS, RunnableSpiders } from '../../ports/runnable-spiders';
import { RequestJobsChangeCommand } from '../../commands/request-jobs-change/request-jobs-change.command';
import { CountJobsQuery, ListJobsQuery } from '../list-jobs/list-jobs.query';
import type { DashJob } from '@crawlhub/wire';

/** Date-time without zone, as the dash lists show them. */
const dashTime = (ms: unknown) => (typeof ms === 'number' ? new Date(ms).toISOString().slice(0, 19) : undefined);

/** The dash job-control API (form-encoded, JSON answers): list, count, update tags, stop, delete, spiders, projects. */
@Controller()
export class DashJobsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly principals: RequestPrincipal,
    @Inject(JOBS_VIEW) private readonly view: JobsView,
    @Inject(JOB_RECORDS_VIEW) private readonly records: JobRecordsView,
    @Optional() @Inject(RUNNABLE_SPIDERS) private readonly runnable: RunnableSpiders | null,
  ) {}

  /** JobQ's filters (state, spider, has_tag, lacks_tag, startts, endts) with every state by default, and `job` keys. */
  private async filterOf(params: URLSearchParams, project: number): Promise<JobFilter> {
    const filter = await jobFilter(this.view, project, params, []);
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
    const now = Date.now();
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

  /** Adds and removes tags of jobs (`job`, repeatable) or of every job of a `spider`. */
  @Post('jobs/update.json')
  async update(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    const keys = params.getAll('job').map((k) => jobKey(k, project));
    const spider = params.get('spider');
    if (keys.length === 0 && spider === null) throw new ApiError(400, 'job or spider is required');
    const outcome = (await this.commands.execute(
      new RequestJobsChangeCommand(project, { op: 'tags', keys, spider: keys.length ? null : spider, add: params.getAll('add_tag'), remove: params.getAll('remove_tag'), by: principal.id }, actorOf(principal)),
    )) as Extract<JobsOutcome, { op: 'tags' }>;
    return sendDash(reply, { count: outcome.count, status: 'ok' });
  }

  /** Stops jobs: a pending job finishes as cancelled, a running one is asked to stop. */
  @Post('jobs/stop.json')
  async stop(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    const keys = params.getAll('job').map((k) => jobKey(k, project));
    if (keys.length === 0) throw new ApiError(400, 'job is required');
    await this.commands.execute(new RequestJobsChangeCommand(project, { op: 'cancel', keys, by: principal.id }, actorOf(principal)));
    return sendDash(reply, { status: 'ok' });
  }

  /** Deletes finished jobs (their data stays readable, as on the original). */
  @Post('jobs/delete.json')
  async delete(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    const keys = params.getAll('job').map((k) => jobKey(k, project));
    if (keys.length === 0) throw new ApiError(400, 'job is required');
    const outcome = (await this.commands.execute(
      new RequestJobsChangeCommand(project, { op: 'update', updates: keys.map((key) => ({ key, state: 'deleted', fields: {} })), by: principal.id }, actorOf(principal)),
    )) as Extract<JobsOutcome, { op: 'update' }>;
    if (outcome.errors.length) throw new ApiError(400, outcome.errors.join('; '));
    return sendDash(reply, { count: outcome.lines.length, status: 'ok' });
  }

  @Get('spiders/list.json')
  async spiders(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    await this.principals.authorize(req, project);
    // Deployed spiders carry the current version (they got their ids when it was deployed).
    const deployed = (await this.runnable?.current(project)) ?? null;
    const spiders = (await this.view.spiders(project)).map((s) => ({ version: deployed?.spiders.includes(s.name) ? deployed.version : null, tags: s.tags, id: s.name, type: 'manual' }));
    return sendDash(reply, { spiders, status: 'ok' });
  }

  @Get('scrapyd/listprojects.json')
  async projects(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await this.principals.of(req);
    if (!principal) throw new ApiError(401, 'Authentication failed');
    const projects = principal.admin ? (await this.view.stateCounts()).map((r) => r.project) : principal.projects;
    return sendDash(reply, { projects: projects.filter((p) => canAccessProject(principal, p)), status: 'ok' });
  }
}
