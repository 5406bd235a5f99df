import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { queryOf, RequestPrincipal, sendRecords, single } from '@crawlhub/http';
import { authorizedSlot, intParam } from '../../http/frontier-request';
import { ReadFingerprintsQuery } from './read-fingerprints.query';

@Controller('hcf')
export class ReadFingerprintsController {
  constructor(private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  /** JSON lines `{"fp":…}` (with `"fdata"` when stored) in byte order of fp; `start`, `startafter`, `count`. */
  @Get(':project/:frontier/s/:slot/f')
  async read(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { slot } = await authorizedSlot(this.principals, req, p);
    const q = queryOf(req);
    const after = single(q, 'startafter');
    const from = single(q, 'start');
    const count = intParam(single(q, 'count'), 'count', Number.MAX_SAFE_INTEGER) ?? null;
    const range = after !== undefined ? { after } : from !== undefined ? { from } : {};
    const lines = await this.queries.execute<ReadFingerprintsQuery, AsyncIterable<string[]>>(new ReadFingerprintsQuery(slot, range, count));
    return sendRecords(req, reply, lines);
  }
}
