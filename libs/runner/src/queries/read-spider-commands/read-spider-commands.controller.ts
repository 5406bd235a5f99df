import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formParams, RequestPrincipal } from '@crawlhub/http';
import { RegisteredSpider } from '../../domain/spider-command';
import { projectOf, sendDash } from '../../http/spiders-request';
import { ReadSpiderCommandsQuery } from './read-spider-commands.query';

/**
 * GET /api/spiders/commands.json?project=N: the project's registered spiders. Any key
 * of the project may read them; env values are shown to admin keys only (they may hold
 * credentials), other keys see the names with the value "<hidden>".
 */
@Controller('spiders')
export class ReadSpiderCommandsController {
  constructor(private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  @Get('commands.json')
  async list(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const params = await formParams(req);
    const project = projectOf(params.get('project'));
    const principal = await this.principals.authorize(req, project);
    const spiders = await this.queries.execute<ReadSpiderCommandsQuery, RegisteredSpider[]>(new ReadSpiderCommandsQuery(project));
    return sendDash(reply, {
      status: 'ok',
      project,
      spiders: spiders.map((s) => ({
        spider: s.spider,
        command: s.command,
        cwd: s.cwd,
        env: principal.admin ? s.env : Object.fromEntries(Object.keys(s.env).map((k) => [k, '<hidden>'])),
        registered_by: s.registeredBy,
        registered_time: s.registeredAt,
      })),
    });
  }
}
