import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { queryOf, RequestPrincipal, single } from '@crawlhub/http';
import { authorizedSlot, sendJson } from '../../http/frontier-request';
import { CountQueueQuery } from './count-queue.query';

@Controller('hcf')
export class CountQueueController {
  constructor(private readonly queries: QueryBus, private readonly principals: RequestPrincipal, @Inject(CONFIG) private readonly config: CrawlhubConfig) {}

  /**
   * `{"count":N}`: requests queued (leased ones included) in the batches scanned from
   * `start`; when the scan budget (FRONTIER_COUNT_BATCHES batches) stops it early,
   * `"nextstart"` names the batch to continue from, and clients sum the counts.
   */
  @Get(':project/:frontier/s/:slot/q/count')
  async count(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { slot } = await authorizedSlot(this.principals, req, p);
    const start = single(queryOf(req), 'start') || null;
    const result = await this.queries.execute<CountQueueQuery, { count: number; nextstart?: string }>(new CountQueueQuery(slot, start, this.config.frontier.countBatches));
    return sendJson(reply, JSON.stringify(result));
  }
}
