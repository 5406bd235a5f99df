import { Controller, Delete, Param, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, RequestPrincipal } from '@crawlhub/http';
import { authorizedSlot, sendEmpty } from '../../http/frontier-request';
import { DeleteSlotCommand } from './delete-slot.command';

@Controller('hcf')
export class DeleteSlotController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  /** 200 with an empty body, also when the slot does not exist. */
  @Delete(':project/:frontier/s/:slot')
  async delete(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { slot, principal } = await authorizedSlot(this.principals, req, p);
    await this.commands.execute(new DeleteSlotCommand(slot, actorOf(principal)));
    return sendEmpty(reply);
  }
}
