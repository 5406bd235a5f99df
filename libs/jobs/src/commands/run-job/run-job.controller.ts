import { Controller, Inject, Optional, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JobPushRequest, JobState } from '@crawlhub/contracts';
import { actorOf, ApiError, formParams, RequestPrincipal } from '@crawlhub/http';
import { JobsOutcome } from '../../domain/decide-jobs';
import { clientMetadata, integer, jsonObject, projectId, sendDash, spiderName, states } from '../../http/jobs-request';
import { RUNNABLE_SPIDERS, RunnableSpiders } from '../../ports/runnable-spiders';
import { RequestJobsChangeCommand } from '../request-jobs-change/request-jobs-change.command';

const CONTROL = new Set(['project', 'spider', 'add_tag', 'priority', 'units', 'job_settings', 'meta', 'cmd_args', 'environment', 'apikey']);

/**
 * POST /api/run.json (form): schedules a job. Any parameter that is not a control
 * parameter is a spider argument; the same spider with the same arguments while one is
 * pending or running is refused with 400 "<spider> already scheduled".
 */
@Controller()
export class RunJobController {
  constructor(
    private readonly commands: CommandBus,
    private readonly principals: RequestPrincipal,
    @Optional() @Inject(RUNNABLE_SPIDERS) private readonly runnable: RunnableSpiders | null,
  ) {}

  @Post('run.json')
  async run(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectId(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    if (!params.get('spider')) throw new ApiError(400, 'spider is required');
    const spider = spiderName(params.get('spider'));
    const meta = jsonObject(params.get('meta'), 'meta');
    const jobSettings = params.get('job_settings') === null ? null : jsonObject(params.get('job_settings'), 'job_settings');
    const environment = params.get('environment') === null ? null : jsonObject(params.get('environment'), 'environment');
    const spiderArgs: Record<string, string> = {};
    for (const [k, v] of params) if (!CONTROL.has(k)) spiderArgs[k] = v;
    // `state` is run.json's control (compat-notes: meta may create the job in a state); the other fields follow the metadata rule.
    const { state: metaState, ...metaFields } = meta;
    clientMetadata(metaFields);
    const state: JobState = metaState === undefined ? 'pending' : states([String(metaState)])[0];
    if (state === 'deleted') throw new ApiError(400, 'a job cannot be scheduled as deleted');
    // A job of a deployed spider keeps the version it was scheduled with (its `version` and `deploy_id`).
    const run = (await this.runnable?.resolve(project, spider)) ?? { kind: 'undecided' };
    if (run.kind === 'unknown') throw new ApiError(400, `Spider ${spider} not found`);
    const deployed = run.kind === 'deployed' ? { version: run.version, deploy_id: run.deployId } : {};
    const request: JobPushRequest = {
      op: 'push',
      spider,
      priority: integer(params, 'priority', 2, 0, 4),
      units: integer(params, 'units', 1, 1, 6),
      tags: params.getAll('add_tag'),
      spiderArgs,
      jobSettings,
      meta: {
        ...metaFields,
        ...deployed,
        ...(environment ? { environment } : {}),
        ...(params.get('cmd_args') ? { cmd_args: params.get('cmd_args') } : {}),
        api_url: dashApiUrlOf(req),
      },
      unique: null,
      refuseDuplicateArgs: true,
      state,
      spiderType: 'manual',
      by: principal.id,
      fire: null,
    };
    const outcome = (await this.commands.execute(new RequestJobsChangeCommand(project, request, actorOf(principal)))) as Extract<JobsOutcome, { op: 'push' }>;
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
