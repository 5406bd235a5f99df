import { Controller, Get, Inject, Param, Patch, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, ApiError, parseJson, readText, RequestPrincipal } from '@crawlhub/http';
import { JobsOutcome } from '../../domain/decide-jobs';
import { projectId } from '../../http/jobs-request';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';
import { RequestJobsChangeCommand } from '../request-jobs-change/request-jobs-change.command';

/**
 * The v2 spider endpoints the official client calls (`Spider.list_tags`,
 * `Spider.update_tags`). Validation errors answer in the v2 (REST framework) style.
 */
@Controller('v2/projects/:project/spiders/:spider')
export class SpidersV2Controller {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal, @Inject(JOBS_VIEW) private readonly view: JobsView) {}

  @Get()
  async get(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p.project);
    await this.principals.authorize(req, project);
    const spider = await this.view.spiderById(project, spiderId(p.spider));
    if (!spider) throw new ApiError(404, 'Not found.');
    return reply.status(200).header('content-type', 'application/json').send(JSON.stringify({ id: spider.id, name: spider.name, tags: spider.tags }));
  }

  @Patch('tags')
  async tags(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p.project);
    const principal = await this.principals.authorize(req, project);
    let body: { add?: unknown; remove?: unknown };
    try {
      body = parseJson((await readText(req, 64 * 1024)) || '{}') as typeof body;
    } catch (e) {
      if (e instanceof ApiError) throw e;
      return v2Error(reply, { non_field_errors: [`Malformed JSON: ${(e as Error).message}`] });
    }
    const list = (v: unknown) => (Array.isArray(v) && v.every((t) => typeof t === 'string') ? (v as string[]) : v === undefined ? [] : null);
    const add = list(body.add);
    const remove = list(body.remove);
    if (add === null || remove === null) return v2Error(reply, { non_field_errors: ['"add" and "remove" must be lists of strings'] });
    if (add.length === 0 && remove.length === 0) return v2Error(reply, { non_field_errors: ['At least one of "add" or "remove" arguments must not be empty'] });
    const outcome = (await this.commands.execute(
      new RequestJobsChangeCommand(project, { op: 'spider', name: null, id: spiderId(p.spider), create: false, add, remove, by: principal.id }, actorOf(principal)),
    )) as Extract<JobsOutcome, { op: 'spider' }>;
    if (!outcome.spider) throw new ApiError(404, 'Not found.');
    return reply.status(200).header('content-type', 'application/json').send(JSON.stringify({ tags: outcome.spider.tags }));
  }
}

function spiderId(value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new ApiError(404, 'Not found.');
  return Number(value);
}

function v2Error(reply: FastifyReply, body: Record<string, string[]>) {
  return reply.status(400).header('content-type', 'application/json').send(JSON.stringify(body));
}
