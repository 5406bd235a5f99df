import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createGunzip } from 'node:zlib';
import { actorOf, RequestPrincipal, StorageHttpError } from '@crawlhub/http';
import { authorizedSlot, sendEmpty } from '../../http/frontier-request';
import { DeleteBatchesCommand } from './delete-batches.command';

@Controller('hcf')
export class DeleteBatchesController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  /** Removes batches from the queue: 200, empty body, no content type; unknown ids are fine. */
  @Post(':project/:frontier/s/:slot/q/deleted')
  async delete(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { slot, principal } = await authorizedSlot(this.principals, req, p);
    const encoding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (!['identity', 'gzip', ''].includes(encoding)) throw new StorageHttpError(415, `Unsupported content-encoding: ${encoding}`);
    const body = encoding === 'gzip' ? req.raw.pipe(createGunzip()) : req.raw;
    await this.commands.execute(new DeleteBatchesCommand(slot, body, actorOf(principal)));
    return sendEmpty(reply);
  }
}
