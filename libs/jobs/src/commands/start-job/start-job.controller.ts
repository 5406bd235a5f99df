import { Controller, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, ApiError, readText, RequestPrincipal } from '@crawlhub/http';
import { maxRunningOf } from '../../domain/botgroups';
import { JobsOutcome } from '../../domain/decide-jobs';
import { JobTokens } from '../../http/jobs-principal';
import { clientMetadata, jsonRecords, jsonStringList, projectId, sendJobqLines } from '../../http/jobs-request';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';
import { RequestJobsChangeCommand } from '../request-jobs-change/request-jobs-change.command';

/**
 * POST jobq/<p>/startjob: a runner claims the next pending job (highest priority, then
 * first pushed), optionally within `max_units` and `spiders`, and while the project runs
 * fewer jobs than its botgroups' `max_running`; other fields are saved in the job's
 * metadata. Answers the running job with its token, or an empty body.
 */
@Controller('jobq')
export class StartJobController {
  constructor(
    private readonly commands: CommandBus,
    private readonly principals: RequestPrincipal,
    private readonly tokens: JobTokens,
    @Inject(JOBS_VIEW) private readonly view: JobsView,
  ) {}

  @Post(':project/startjob')
  async start(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p);
    const principal = await this.principals.authorize(req, project);
    const [body = {}] = jsonRecords(await readText(req, 1024 * 1024));
    const { max_units: maxUnits, spiders: _spiders, botgroup: _botgroup, ...fields } = body;
    if (maxUnits !== undefined && (typeof maxUnits !== 'number' || !Number.isInteger(maxUnits) || maxUnits < 1)) throw new ApiError(400, '"max_units" must be a positive integer');
    const spiderList = jsonStringList(body, 'spiders');
    const by = typeof fields.started_by === 'string' ? fields.started_by : 'jobrunner';
    delete fields.started_by;
    clientMetadata(fields);
    // The project's botgroups limit its running jobs, for every claimer (crawlhub's runners and others).
    const maxRunning = await maxRunningOf(this.view, project);
    const request = { op: 'start', maxUnits: (maxUnits as number | undefined) ?? null, maxRunning, spiders: spiderList, fields, by } as const;
    const outcome = (await this.commands.execute(new RequestJobsChangeCommand(project, request, actorOf(principal)))) as Extract<JobsOutcome, { op: 'start' }>;
    if (!outcome.key) return reply.status(200).header('content-type', 'application/x-jsonlines').send('');
    const job = (await this.view.job(outcome.key))!;
    return sendJobqLines(reply, [{ key: job.key, ...job.meta, auth: await this.tokens.issue(job) }]);
  }
}
