import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, formParams, isFlagSet, RequestPrincipal } from '@crawlhub/http';
import { SpiderDoc } from '../../domain/job';
import { projectId, sendJobqJson } from '../../http/jobs-request';
import { GetSpiderQuery } from '../../queries/get-spider/get-spider.query';
import { ChangeSpiderCommand } from './change-spider.command';

/** JobQ `ids/<p>/spider/<name>`: the id of a spider name, or null; `create` (1, true, True...) gives the name an id first. */
@Controller('ids')
export class SpiderIdsController {
  constructor(private readonly commands: CommandBus, private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  @Get(':project/spider/:name')
  async spiderId(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const project = projectId(p.project);
    const principal = await this.principals.authorize(req, project);
    const known = await this.queries.execute<GetSpiderQuery, SpiderDoc | null>(new GetSpiderQuery(project, { name: p.name }));
    if (known || !isFlagSet((await formParams(req)).get('create'))) return sendJobqJson(reply, known?.id ?? null);
    const created = await this.commands.execute<ChangeSpiderCommand, SpiderDoc | null>(new ChangeSpiderCommand(project, { create: p.name }, principal.id, actorOf(principal)));
    return sendJobqJson(reply, created?.id ?? null);
  }
}
