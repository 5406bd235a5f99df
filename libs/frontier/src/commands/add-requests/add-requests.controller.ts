import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, decodedBody, RequestPrincipal } from '@crawlhub/http';
import { authorizedSlot, sendJson } from '../../http/frontier-request';
import { AddRequestsCommand } from './add-requests.command';

@Controller('hcf')
export class AddRequestsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  /**
   * Enqueues request objects (JSON lines; gzip allowed) and answers `{"newcount":N}`.
   * The Python writer's `?start=<offset>` is accepted and ignored (the queue has no positions).
   */
  @Post(':project/:frontier/s/:slot')
  async add(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { slot, principal } = await authorizedSlot(this.principals, req, p);
    const body = decodedBody(req);
    const { newcount } = await this.commands.execute<AddRequestsCommand, { newcount: number }>(new AddRequestsCommand(slot, body, actorOf(principal)));
    return sendJson(reply, `{"newcount":${newcount}}`);
  }
}
