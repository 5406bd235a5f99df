import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CollectionType } from '@crawlhub/contracts';
import { RequestPrincipal, sendRecords } from '@crawlhub/http';
import { authorizedProject } from '../../http/collections-request';
import { ListCollectionsQuery } from './list-collections.query';

/** GET /collections/<p>/list: JSON lines `{"type":"s","name":"..."}`, by name then type (s, cs, vs, vcs). */
@Controller('collections')
export class ListCollectionsController {
  constructor(private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  @Get(':project/list')
  async list(@Param('project') segment: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { project } = await authorizedProject(this.principals, req, segment);
    const list = await this.queries.execute<ListCollectionsQuery, { type: CollectionType; name: string }[]>(new ListCollectionsQuery(project));
    return sendRecords(req, reply, (async function* () {
      yield list.map((c) => JSON.stringify({ type: c.type, name: c.name }));
    })());
  }
}
