import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, decodedBody, RequestPrincipal } from '@crawlhub/http';
import { authorizedSlot, sendEmpty } from '../../http/frontier-request';
import { DeleteBatchesCommand } from './delete-batches.command';

@Controller('hcf')
export class DeleteBatchesController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  /** Removes batches from the queue: 200, empty body, no content type; unknown ids are fine. */
  @Post(':project/:frontier/s/:slot/q/deleted')
  async delete(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { slot, principal } = await authorizedSlot(this.principals, req, p);
    const body = decodedBody(req);
    await this.commands.execute(new DeleteBatchesCommand(slot, body, actorOf(principal)));
    return sendEmpty(reply);
  }
}
