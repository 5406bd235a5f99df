import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, ApiError, readText, RequestPrincipal } from '@crawlhub/http';
import { JobTokens } from '../../http/jobs-principal';
import { idempotencyKeyOf, jsonRecords, projectId, sendJobqLines } from '../../http/jobs-request';
import { checked, stringList } from '../shared/command-input';
import { JobDoc } from '../../domain/job';
import { GetJobQuery } from '../../queries/get-job/get-job.query';
import { OutcomeOf } from '../shared/jobs-requests';
import { PushJobCommand } from './push-job.command';

const RESERVED = new Set(['spider', 'priority', 'units', 'unique', 'state', 'tags', 'add_tag', 'spider_args', 'job_settings']);

/** POST jobq/<p>/push: `{"spider", "priority"?, "units"?, "unique"?, "state"?, ...metadata}` → `{"key", "auth"}`. */
@Controller('jobq')
export class PushJobController {
  constructor(
    private readonly commands: CommandBus,
    private readonly principals: RequestPrincipal,
    private readonly tokens: JobTokens,
    private readonly queries: QueryBus,
  ) {}

  @Post(':project/push')
  async push(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p);
    const principal = await this.principals.authorize(req, project);
    const records = jsonRecords(await readText(req, 1024 * 1024));
    if (records.length !== 1) throw new ApiError(400, 'push takes one JSON object');
    const [body] = records;
    // `add_tag` is the older name of `tags`: a refusal names the field the body used.
    const tagsField = body.tags === undefined ? 'add_tag' : 'tags';
    const meta = Object.fromEntries(Object.entries(body).filter(([k]) => !RESERVED.has(k)));
    const push = new PushJobCommand(
      project,
      {
        spider: body.spider,
        state: body.state,
        tags: checked(stringList(tagsField), body[tagsField]),
        meta,
        spiderArgs: body.spider_args,
        jobSettings: body.job_settings,
        priority: body.priority,
        units: body.units,
        unique: body.unique,
        spiderType: body.spider_type,
        by: principal.id,
      },
      actorOf(principal),
      idempotencyKeyOf(req),
    );
    const outcome = await this.commands.execute<PushJobCommand, OutcomeOf<'push'>>(push);
    if (outcome.error) return sendJobqLines(reply, [{ request: body, error: outcome.error }]);
    const job = outcome.state === 'running' ? await this.queries.execute<GetJobQuery, JobDoc | null>(new GetJobQuery(outcome.key)) : null;
    return sendJobqLines(reply, [{ key: outcome.key, auth: job ? await this.tokens.issue(job) : null }]);
  }
}
