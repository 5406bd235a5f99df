import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { hasCapability } from '@crawlhub/access';
import { CLOCK, Clock, IDS, Ids } from '@crawlhub/contracts';
import { actorOf, readBody, RequestPrincipal } from '@crawlhub/http';
import { MAX_BODY_BYTES } from '../../domain/extraction-queries';
import { ExtractionProblem } from '../../api/extraction-problem';
import { ExtractBatchCommand, QueryResult } from './extract-batch.command';

@Controller()
export class ExtractBatchController {
  /** Requests in flight per connection: a second one while the first runs is pipelining. */
  private readonly inFlightOn = new WeakMap<Socket, number>();

  constructor(
    private readonly principals: RequestPrincipal,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDS) private readonly ids: Ids,
  ) {}

  /** POST /v1/extract: a batch of 1–100 queries, answered with one result per query (ExtractBatchHandler). */
  @Post('v1/extract')
  async extract(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const socket = req.raw.socket;
    const before = this.inFlightOn.get(socket) ?? 0;
    this.inFlightOn.set(socket, before + 1);
    reply.raw.once('close', () => this.inFlightOn.set(socket, (this.inFlightOn.get(socket) ?? 1) - 1));
    if (before > 0) throw new ExtractionProblem(400, 'http-pipelining-not-supported', 'Attempt to second HTTP request over TCP connection');
    const principal = await this.principals.of(req);
    if (!principal) throw new ExtractionProblem(401, 'unauthorized', 'Authentication token not provided or invalid');
    if (!hasCapability(principal, 'extraction')) {
      throw new ExtractionProblem(403, 'account-disabled', 'Account has been disabled - contact support (this key is not enabled for extraction: crawlhub keys grant <key-id> extraction)');
    }
    const type = String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') throw new ExtractionProblem(415, 'unrecognized-content-type', 'Unsupported request content type: should be application/json');
    const command = new ExtractBatchCommand(principal.id, actorOf(principal), await readBody(req, MAX_BODY_BYTES), { clock: this.clock, ids: this.ids });
    const results = await this.commands.execute<ExtractBatchCommand, QueryResult[]>(command);
    return reply.status(200).header('content-type', 'application/json').send(JSON.stringify(results));
  }
}
