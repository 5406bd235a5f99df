import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock, CLOCK } from '@crawlhub/contracts';
import { actorOf, queryOf, RequestPrincipal, sendRecords, single, ApiError } from '@crawlhub/http';
import { batchLine } from '../../domain/batches';
import { DEFAULT_MINCOUNT } from '../../domain/lease';
import { authorizedSlot, intParam } from '../../http/frontier-request';
import { StoredBatch } from '../../ports/frontier.view';
import { LeaseBatchesCommand } from '../../commands/lease-batches/lease-batches.command';
import { ReadQueueQuery } from './read-queue.query';

/** Largest `mincount` accepted (requests of one read). */
export const MAX_MINCOUNT = 10_000_000;
/** Longest lease, seconds. */
export const MAX_LEASE_SECONDS = 86_400;

@Controller('hcf')
export class ReadQueueController {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
    private readonly principals: RequestPrincipal,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * JSON lines of batches `{"id":…,"requests":[[fp, qdata], …]}` in id order: whole
   * batches until at least `mincount` requests (default 100), from `start` (a batch id,
   * inclusive). Reading does not consume. With `lease=<seconds>` the batches are also
   * leased to this reader: other reads skip them until the lease expires.
   */
  @Get(':project/:frontier/s/:slot/q')
  async read(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { slot, principal } = await authorizedSlot(this.principals, req, p);
    const q = queryOf(req);
    const mincount = intParam(single(q, 'mincount'), 'mincount', MAX_MINCOUNT) ?? DEFAULT_MINCOUNT;
    const start = single(q, 'start') || null;
    const lease = single(q, 'lease');
    if (lease !== undefined) {
      const seconds = Number(lease);
      if (lease.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_LEASE_SECONDS) {
        throw ApiError.badRequest(`Invalid lease: ${JSON.stringify(lease)} (seconds, more than 0 and at most ${MAX_LEASE_SECONDS})`);
      }
      const leased = await this.commands.execute<LeaseBatchesCommand, StoredBatch[]>(
        new LeaseBatchesCommand(slot, mincount, Math.ceil(seconds * 1000), start, actorOf(principal)),
      );
      return sendRecords(req, reply, pages([leased.map(batchLine)]));
    }
    const lines = await this.queries.execute<ReadQueueQuery, AsyncIterable<string[]>>(new ReadQueueQuery(slot, mincount, start, this.clock.now()));
    return sendRecords(req, reply, lines);
  }
}

async function* pages(all: string[][]): AsyncGenerator<string[]> {
  for (const p of all) if (p.length) yield p;
}
