import { Controller, Delete, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, decodedBody, RequestPrincipal, ApiError } from '@crawlhub/http';
import { isValidKey } from '../../domain/collection-record';
import { authorizedCollection, scanParamsOf, sendJson, sendWritten } from '../../http/collections-request';
import { DeletedRecords, DeleteMatchingRecordsCommand, DeleteRecordsCommand } from './delete-records.command';

@Controller('collections')
export class DeleteRecordsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  /**
   * DELETE with the scan's selection and filters (none: every record): `{"deleted":N}`, plus
   * `"nextstart"` when the scan budget stopped before the end (call again with `start=`).
   */
  @Delete(':project/:type/:name')
  async deleteMatching(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { ref, principal } = await authorizedCollection(this.principals, req, p);
    const { count: _count, ...params } = scanParamsOf(req);
    const result = await this.commands.execute<DeleteMatchingRecordsCommand, DeletedRecords>(new DeleteMatchingRecordsCommand({ ref, ...params }, actorOf(principal)));
    return sendJson(reply, 200, JSON.stringify(result));
  }

  /** One record; 200 whether it existed or not. */
  @Delete(':project/:type/:name/:key')
  async deleteOne(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { ref, principal } = await authorizedCollection(this.principals, req, p);
    if (!isValidKey(p.key)) throw ApiError.badRequest(`Invalid key: ${JSON.stringify(p.key)}`);
    await this.commands.execute(new DeleteRecordsCommand(ref, { list: [p.key] }, actorOf(principal)));
    return sendWritten(reply);
  }

  /** JSON lines of keys (JSON strings, or arrays of them); missing keys are ignored. */
  @Post(':project/:type/:name/deleted')
  async deleteMany(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const { ref, principal } = await authorizedCollection(this.principals, req, p);
    await this.commands.execute(new DeleteRecordsCommand(ref, { body: decodedBody(req) }, actorOf(principal)));
    return sendWritten(reply);
  }
}
