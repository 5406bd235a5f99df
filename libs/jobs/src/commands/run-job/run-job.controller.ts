import { Controller, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, ApiError, formParams, RequestPrincipal } from '@crawlhub/http';
import { idempotencyKeyOf, integer, jsonObject, projectId, sendDash } from '../../http/jobs-request';
import { OutcomeOf } from '../shared/jobs-requests';
import { RunJobCommand } from './run-job.command';

const CONTROL = new Set(['project', 'spider', 'add_tag', 'priority', 'units', 'job_settings', 'meta', 'cmd_args', 'environment', 'apikey']);

/**
 * POST /api/run.json (form): schedules a job. Any parameter that is not a control
 * parameter is a spider argument; the same spider with the same arguments while one is
 * pending or running is refused with 400 "<spider> already scheduled".
 */
@Controller()
export class RunJobController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  @Post('run.json')
  async run(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    if (!params.get('spider')) throw new ApiError(400, 'spider is required');
    // `state` is run.json's control (compat-notes: meta may create the job in a state); the other fields follow the metadata rule.
    const { state, ...meta } = jsonObject(params.get('meta'), 'meta');
    const jobSettings = params.get('job_settings') === null ? null : jsonObject(params.get('job_settings'), 'job_settings');
    const environment = params.get('environment') === null ? null : jsonObject(params.get('environment'), 'environment');
    const spiderArgs: Record<string, string> = {};
    for (const [k, v] of params) if (!CONTROL.has(k)) spiderArgs[k] = v;
    const run = new RunJobCommand(
      project,
      {
        spider: params.get('spider'),
        state,
        tags: params.getAll('add_tag'),
        meta,
        spiderArgs,
        jobSettings,
        // Form integers are text: the form's own refusal quotes it as it came.
        priority: integer(params, 'priority', 2, 0, 4),
        units: integer(params, 'units', 1, 1, 6),
        spiderType: 'manual',
        by: principal.id,
      },
      { environment, cmdArgs: params.get('cmd_args'), apiUrl: dashApiUrlOf(req) },
      actorOf(principal),
      idempotencyKeyOf(req),
    );
    const outcome = await this.commands.execute<RunJobCommand, OutcomeOf<'push'>>(run);
    if (outcome.error) throw new ApiError(400, outcome.error);
    return sendDash(reply.header('allow', 'POST, OPTIONS'), { status: 'ok', jobid: outcome.key });
  }
}

/**
 * The dash API's URL as the scheduling client reached it (the original records its public
 * dash URL in `api_url` of the jobs run.json creates; clients compare it with their endpoint).
 */
function dashApiUrlOf(req: FastifyRequest): string {
  return `${req.protocol}://${req.headers.host ?? req.hostname}/api/`;
}
