import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, readText, RequestPrincipal } from '@crawlhub/http';
import { JobDoc } from '../../domain/job';
import { JobTokens } from '../../http/jobs-principal';
import { jsonRecords, projectId, sendJobqLines } from '../../http/jobs-request';
import { StartJobCommand } from './start-job.command';

/**
 * POST jobq/<p>/startjob: a runner claims the next pending job (highest priority, then
 * first pushed), optionally within `max_units` and `spiders`, and while the project runs
 * fewer jobs than its botgroups' `max_running`; other fields are saved in the job's
 * metadata. Answers the running job with its token, or an empty body.
 */
@Controller('jobq')
export class StartJobController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal, private readonly tokens: JobTokens) {}

  @Post(':project/startjob')
  async start(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p);
    const principal = await this.principals.authorize(req, project);
    const [body = {}] = jsonRecords(await readText(req, 1024 * 1024));
    const { max_units: maxUnits, spiders, botgroup: _botgroup, started_by: startedBy, ...fields } = body;
    const by = typeof startedBy === 'string' ? startedBy : 'jobrunner';
    const job = await this.commands.execute<StartJobCommand, JobDoc | null>(new StartJobCommand(project, { maxUnits, spiders, fields, by }, actorOf(principal)));
    if (!job) return reply.status(200).header('content-type', 'application/x-jsonlines').send('');
    return sendJobqLines(reply, [{ key: job.key, ...job.meta, auth: await this.tokens.issue(job) }]);
  }
}
