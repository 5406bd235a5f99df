import { Controller, Delete, Param, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestPrincipal } from '@crawlhub/http';
import { commentObject, StoredComment } from '../../domain/comment';
import { actorOf, principalOf, sendJson, targetOf } from '../../http/comments-request';
import { ArchiveCommentsCommand } from './archive-comments.command';

/**
 * DELETE on an item or field route archives the comments of exactly that target that
 * are still active (any key that sees the project may) and answers with the array of
 * comments it archived ([] when there were none).
 */
@Controller('comments')
export class ArchiveCommentsController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  @Delete(':project/:spider/:job/:item')
  archiveItem(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.archive(p, req, reply);
  }

  @Delete(':project/:spider/:job/:item/:field')
  archiveField(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.archive(p, req, reply);
  }

  private async archive(p: Record<string, string>, req: FastifyRequest, reply: FastifyReply) {
    const principal = await principalOf(this.principals, req);
    const target = targetOf(p, principal);
    const archived = await this.commands.execute<ArchiveCommentsCommand, StoredComment[]>(new ArchiveCommentsCommand(target, actorOf(principal)));
    return sendJson(reply, JSON.stringify(archived.map((c) => commentObject(c, principal.id))));
  }
}
