import { Controller, Get, Param, Patch, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, ApiError, parseJson, readText, RequestPrincipal } from '@crawlhub/http';
import { SpiderDoc } from '../../domain/job';
import { projectId } from '../../http/jobs-request';
import { GetSpiderQuery } from '../../queries/get-spider/get-spider.query';
import { ChangeSpiderCommand } from './change-spider.command';

/**
 * The v2 spider endpoints the official client calls (`Spider.list_tags`,
 * `Spider.update_tags`). Validation errors answer in the v2 (REST framework) style.
 */
@Controller('v2/projects/:project/spiders/:spider')
export class ChangeSpiderController {
  constructor(private readonly commands: CommandBus, private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  @Get()
  async get(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p.project);
    await this.principals.authorize(req, project);
    const spider = await this.queries.execute<GetSpiderQuery, SpiderDoc | null>(new GetSpiderQuery(project, { id: spiderId(p.spider) }));
    if (!spider) throw new ApiError(404, 'Not found.');
    return reply.status(200).header('content-type', 'application/json').send(JSON.stringify({ id: spider.id, name: spider.name, tags: spider.tags }));
  }

  @Patch('tags')
  async tags(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p.project);
    const principal = await this.principals.authorize(req, project);
    let body: { add?: unknown; remove?: unknown } = {};
    try {
      const parsed = parseJson((await readText(req, 64 * 1024)) || '{}');
      if (parsed !== null && typeof parsed === 'object') body = parsed;
    } catch (e) {
      if (e instanceof ApiError) throw e;
      return v2Error(reply, `Malformed JSON: ${(e as Error).message}`);
    }
    let change: ChangeSpiderCommand;
    try {
      change = new ChangeSpiderCommand(project, { id: spiderId(p.spider), add: body.add, remove: body.remove }, principal.id, actorOf(principal));
    } catch (e) {
      if (e instanceof ApiError && e.status === 400) return v2Error(reply, e.message);
      throw e;
    }
    const spider = await this.commands.execute<ChangeSpiderCommand, SpiderDoc | null>(change);
    if (!spider) throw new ApiError(404, 'Not found.');
    return reply.status(200).header('content-type', 'application/json').send(JSON.stringify({ tags: spider.tags }));
  }
}

function spiderId(value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new ApiError(404, 'Not found.');
  return Number(value);
}

/** A refusal in the v2 (REST framework) style. */
function v2Error(reply: FastifyReply, message: string) {
  return reply.status(400).header('content-type', 'application/json').send(JSON.stringify({ non_field_errors: [message] }));
}
