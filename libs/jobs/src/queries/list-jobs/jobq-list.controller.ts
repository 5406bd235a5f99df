import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canAccessProject } from '@crawlhub/access';
import { Clock, CLOCK, JOB_STATES, JobState } from '@crawlhub/contracts';
import { ApiError, formParams, MAX_ID, parseUnsignedInteger, RequestPrincipal } from '@crawlhub/http';
import { JobDoc, SpiderDoc } from '../../domain/job';
import { integer, jobFilter, jobKey, jobqEntries, projectId, sendJobqJson, sendJobqLines, states } from '../../http/jobs-request';
import { JOB_RECORDS_VIEW, JobRecordsView } from '@crawlhub/storage';
import { GetJobQuery } from '../get-job/get-job.query';
import { ListSpidersQuery } from '../get-spider/get-spider.query';
import { JobStateCounts } from '../job-state-counts/job-state-counts.handler';
import { JobStateCountsQuery } from '../job-state-counts/job-state-counts.query';
import { CountJobsQuery, ListJobsQuery } from './list-jobs.query';

const SUMMARY_STATES: JobState[] = ['pending', 'running', 'finished'];

/** The JobQ read side (compat-notes §1.7): lists default to finished jobs, newest first. */
@Controller()
export class JobqListController {
  constructor(
    private readonly queries: QueryBus,
    private readonly principals: RequestPrincipal,
    @Inject(JOB_RECORDS_VIEW) private readonly records: JobRecordsView,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('jobq/:project/list')
  async list(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p);
    await this.principals.authorize(req, project);
    const params = await formParams(req);
    const filter = await jobFilter(this.queries, project, params, ['finished']);
    const stop = params.get('stop');
    if (stop !== null) {
      const job = await this.queries.execute<GetJobQuery, JobDoc | null>(new GetJobQuery(jobKey(stop, project)));
      if (job) filter.newerThan = { ts: job.ts, order: job.order };
    }
    const page = { offset: integer(params, 'start', 0, 0, Number.MAX_SAFE_INTEGER), limit: integer(params, 'count', 1000, 0, 100_000) };
    const jobs = await this.queries.execute<ListJobsQuery, JobDoc[]>(new ListJobsQuery(filter, page));
    const now = this.clock.now();
    return sendJobqLines(reply, await jobqEntries(this.records, jobs, now, params.getAll('jobmeta')));
  }

  @Get('jobq/:project/count')
  async count(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p);
    await this.principals.authorize(req, project);
    const filter = await jobFilter(this.queries, project, await formParams(req), ['finished']);
    return sendJobqJson(reply, await this.queries.execute<CountJobsQuery, number>(new CountJobsQuery(filter)));
  }

  @Get('jobq/:project/summary')
  summary(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.summaries(p, undefined, SUMMARY_STATES, req, reply);
  }

  @Get('jobq/:project/summary/:state')
  summaryOf(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.summaries(p.project, undefined, states([p.state]), req, reply);
  }

  @Get('jobq/:project/:spider/summary')
  spiderSummaries(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.summaries(p.project, spiderIdOf(p.spider), SUMMARY_STATES, req, reply);
  }

  @Get('jobq/:project/:spider/summary/:state')
  spiderSummary(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.summaries(p.project, spiderIdOf(p.spider), states([p.state]), req, reply);
  }

  /** Per state: `{"name", "count" (all in that state), "summary": newest `count` (default 5) entries}`. */
  private async summaries(p: string, spider: number | undefined, wanted: JobState[], req: FastifyRequest, reply: FastifyReply) {
    const project = projectId(p);
    await this.principals.authorize(req, project);
    const params = await formParams(req);
    const page = { offset: integer(params, 'start', 0, 0, Number.MAX_SAFE_INTEGER), limit: integer(params, 'count', 5, 0, 10_000) };
    const now = this.clock.now();
    const lines = [];
    for (const state of wanted) {
      const filter = { project, states: [state], ...(spider === undefined ? {} : { spiderIds: [spider] }) };
      const jobs = await this.queries.execute<ListJobsQuery, JobDoc[]>(new ListJobsQuery(filter, page));
      const count = await this.queries.execute<CountJobsQuery, number>(new CountJobsQuery(filter));
      lines.push({ count, name: state, summary: await jobqEntries(this.records, jobs, now, params.getAll('jobmeta')) });
    }
    return sendJobqLines(reply, lines);
  }

  /** `key` repeatable → `{"key", "state", "elapsed", "ts", ...jobmeta}` per known job. */
  @Get('jobq/:project/jobsummary')
  async jobSummary(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p);
    await this.principals.authorize(req, project);
    const params = await formParams(req);
    const keys = params.getAll('key').map((k) => jobKey(k, project));
    const jobs = keys.length ? await this.queries.execute<ListJobsQuery, JobDoc[]>(new ListJobsQuery({ project, keys }, { offset: 0, limit: keys.length })) : [];
    const now = this.clock.now();
    return sendJobqLines(reply, await jobqEntries(this.records, jobs, now, params.getAll('jobmeta').length ? params.getAll('jobmeta') : ['key']));
  }

  /** The last job of each spider (or of the `spiderid` ones, or of the one in the path). */
  @Get('spiders/:project/lastjobsummary')
  lastJobSummary(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.lastJobs(p, undefined, req, reply);
  }

  @Get('spiders/:project/:spider/lastjobsummary')
  lastJobSummaryOf(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.lastJobs(p.project, spiderIdOf(p.spider), req, reply);
  }

  private async lastJobs(p: string, spiderId: number | undefined, req: FastifyRequest, reply: FastifyReply) {
    const project = projectId(p);
    await this.principals.authorize(req, project);
    const params = await formParams(req);
    const wanted = spiderId === undefined ? params.getAll('spiderid').map(Number) : [spiderId];
    const now = this.clock.now();
    const lines = [];
    for (const spider of await this.queries.execute<ListSpidersQuery, SpiderDoc[]>(new ListSpidersQuery(project))) {
      if (wanted.length && !wanted.includes(spider.id)) continue;
      const [last] = await this.queries.execute<ListJobsQuery, JobDoc[]>(new ListJobsQuery({ project, spiderIds: [spider.id], states: ['pending', 'running', 'finished'] }, { offset: 0, limit: 1 }));
      if (last) lines.push(...(await jobqEntries(this.records, [last], now, [])));
    }
    return sendJobqLines(reply, lines);
  }

  /** `[{"project", "pending", "running", "finished", "has_capacity"}]` for the projects the key sees. */
  @Get('projects/jobsummaries')
  async projectSummaries(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await this.principals.of(req);
    if (!principal) throw new ApiError(401, 'Unauthorized');
    const rows = (await this.stateCounts()).filter((r) => canAccessProject(principal, r.project));
    return sendJobqJson(reply, rows.map((r) => summaryOf(r.project, r.counts)));
  }

  @Get('projects/:project/jobsummary')
  async projectSummary(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p);
    await this.principals.authorize(req, project);
    const [row] = await this.stateCounts(project);
    const counts = row?.counts ?? (Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>);
    const running = await this.queries.execute<ListJobsQuery, JobDoc[]>(new ListJobsQuery({ project, states: ['running'] }, { offset: 0, limit: 100_000 }));
    const pending = await this.queries.execute<ListJobsQuery, JobDoc[]>(new ListJobsQuery({ project, states: ['pending'] }, { offset: 0, limit: 100_000 }));
    return sendJobqJson(reply, {
      ...summaryOf(project, counts),
      running_units_count: running.reduce((a, j) => a + j.units, 0),
      pending_units_max: pending.reduce((a, j) => Math.max(a, j.units), 0),
    });
  }


  private stateCounts(project?: number): Promise<JobStateCounts> {
    return this.queries.execute(new JobStateCountsQuery(project));
  }
}

function spiderIdOf(value: string): number {
  const id = parseUnsignedInteger(value, MAX_ID);
  if (id === null) throw new ApiError(400, `Invalid spider id: ${JSON.stringify(value)}`);
  return id;
}

function summaryOf(project: number, counts: Record<JobState, number>) {
  return { running: counts.running, project, has_capacity: true, pending: counts.pending, finished: counts.finished };
}
