import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock, CLOCK } from '@crawlhub/contracts';
import { queryOf, RequestPrincipal } from '@crawlhub/http';
import { statsQueryOf } from '../../http/stats-params';
import { StatsPage } from './read-stats.handler';
import { ReadStatsQuery } from './read-stats.query';

@Controller()
export class ReadStatsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly principals: RequestPrincipal,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** GET /stats: usage in intervals, `{"limit":…,"after":"…","results":[…]}` (spec "Proxy usage statistics"). */
  @Get('stats')
  async stats(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await this.principals.require(req);
    const page = await this.queries.execute<ReadStatsQuery, StatsPage>(statsQueryOf(queryOf(req), principal, this.clock.now()));
    return reply.status(200).header('content-type', 'application/json').send(JSON.stringify(page));
  }
}
