import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestPrincipal } from '@crawlhub/http';
import { authorizedProject, nameOf, sendJson } from '../../http/frontier-request';
import { ListFrontiersQuery } from './list-frontiers.query';

@Controller('hcf')
export class ListFrontiersController {
  constructor(private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  /** JSON array of the project's frontiers (those with slots), sorted. */
  @Get(':project/list')
  async frontiers(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { project } = await authorizedProject(this.principals, req, p);
    return sendJson(reply, JSON.stringify(await this.queries.execute<ListFrontiersQuery, string[]>(new ListFrontiersQuery(project, null))));
  }

  /** JSON array of the frontier's slots (those with fingerprints or batches), sorted. */
  @Get(':project/:frontier/list')
  async slots(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { project } = await authorizedProject(this.principals, req, p);
    const frontier = nameOf(p.frontier, 'frontier');
    return sendJson(reply, JSON.stringify(await this.queries.execute<ListFrontiersQuery, string[]>(new ListFrontiersQuery(project, frontier))));
  }
}
