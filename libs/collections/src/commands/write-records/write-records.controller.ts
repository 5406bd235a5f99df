import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, decodedBody, RequestPrincipal, ApiError } from '@crawlhub/http';
import { isValidKey } from '../../domain/collection-record';
import { authorizedCollection, sendWritten } from '../../http/collections-request';
import { WriteRecordsCommand } from './write-records.command';

@Controller('collections')
export class WriteRecordsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  /** JSON lines of records with `_key` (gzip allowed). `?start=`, which the Python batch writer sends, is ignored. */
  @Post(':project/:type/:name')
  async write(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { ref, principal } = await authorizedCollection(this.principals, req, p);
    await this.commands.execute(new WriteRecordsCommand(ref, decodedBody(req), actorOf(principal)));
    return sendWritten(reply);
  }

  /** One JSON object, stored under the key of the path. */
  @Post(':project/:type/:name/:key')
  async writeOne(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { ref, principal } = await authorizedCollection(this.principals, req, p);
    if (!isValidKey(p.key)) throw ApiError.badRequest(`Invalid key: ${JSON.stringify(p.key)}`);
    await this.commands.execute(new WriteRecordsCommand(ref, decodedBody(req), actorOf(principal), p.key));
    return sendWritten(reply);
  }
}
