import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestPrincipal } from '@crawlhub/http';
import { authorizedCollection, scanParamsOf, sendJson } from '../../http/collections-request';
import { CountRecordsQuery, RecordCount } from './count-records.query';

/**
 * GET /collections/<p>/<type>/<name>/count: `{"count":N,"scanned":M}` (JSON, no trailing
 * newline), plus `"nextstart"` when the scan budget stopped before the end. Takes the
 * scan's selection and filters (`count` is not a page size here).
 */
@Controller('collections')
export class CountRecordsController {
  constructor(private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  @Get(':project/:type/:name/count')
  async count(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { ref } = await authorizedCollection(this.principals, req, p);
    const { count: _count, ...params } = scanParamsOf(req);
    const result = await this.queries.execute<CountRecordsQuery, RecordCount>(new CountRecordsQuery({ ref, ...params }));
    return sendJson(reply, 200, JSON.stringify(result));
  }
}
