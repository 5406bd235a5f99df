import { Controller, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JobPushRequest } from '@crawlhub/contracts';
import { actorOf, ApiError, readText, RequestPrincipal } from '@crawlhub/http';
import { JobsOutcome } from '../../domain/decide-jobs';
import { JobTokens } from '../../http/jobs-principal';
import { clientMetadata, jsonInteger, jsonRecords, jsonStringList, projectId, sendJobqLines, spiderName, states } from '../../http/jobs-request';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';
import { RequestJobsChangeCommand } from '../request-jobs-change/request-jobs-change.command';

const RESERVED = new Set(['spider', 'priority', 'units', 'unique', 'state', 'tags', 'add_tag', 'spider_args', 'job_settings']);

/** POST jobq/<p>/push: `{"spider", "priority"?, "units"?, "unique"?, "state"?, ...metadata}` → `{"key", "auth"}`. */
@Controller('jobq')
export class PushJobController {
  constructor(
    private readonly commands: CommandBus,
    private readonly principals: RequestPrincipal,
    private readonly tokens: JobTokens,
    @Inject(JOBS_VIEW) private readonly view: JobsView,
  ) {}

  @Post(':project/push')
  async push(@Param('project') p: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p);
    const principal = await this.principals.authorize(req, project);
    const records = jsonRecords(await readText(req, 1024 * 1024));
    if (records.length !== 1) throw new ApiError(400, 'push takes one JSON object');
    const body = records[0];
    const request = pushRequestOf(body, principal.id);
    const outcome = (await this.commands.execute(new RequestJobsChangeCommand(project, request, actorOf(principal)))) as Extract<JobsOutcome, { op: 'push' }>;
    if (outcome.error) return sendJobqLines(reply, [{ request: body, error: outcome.error }]);
    const job = outcome.state === 'running' ? await this.view.job(outcome.key) : null;
    return sendJobqLines(reply, [{ key: outcome.key, auth: job ? await this.tokens.issue(job) : null }]);
  }
}

export function pushRequestOf(body: Record<string, unknown>, by: string): JobPushRequest {
  if (body.spider === undefined) throw new ApiError(400, 'push needs a "spider" name');
  const spider = spiderName(body.spider);
  // Any state, deleted included: the official client's own tests push jobs straight into it.
  const state = body.state === undefined ? 'pending' : states([String(body.state)])[0];
  const tags = jsonStringList(body, body.tags === undefined ? 'add_tag' : 'tags');
  const meta: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!RESERVED.has(k)) meta[k] = v;
  clientMetadata(meta);
  const args = body.spider_args ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new ApiError(400, '"spider_args" must be an object');
  return {
    op: 'push',
    spider,
    priority: jsonInteger(body, 'priority', 2, 0, 4),
    units: jsonInteger(body, 'units', 1, 1, 6),
    tags,
    spiderArgs: Object.fromEntries(Object.entries(args).map(([k, v]) => [k, String(v)])),
    jobSettings: (body.job_settings as Record<string, unknown>) ?? null,
    meta,
    unique: body.unique === undefined || body.unique === null ? null : String(body.unique),
    refuseDuplicateArgs: false,
    state,
    spiderType: typeof body.spider_type === 'string' ? body.spider_type : 'manual',
    by,
    fire: null,
  };
}
