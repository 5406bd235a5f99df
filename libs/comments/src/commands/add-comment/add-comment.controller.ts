import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestPrincipal } from '@crawlhub/http';
import { commentObject, StoredComment } from '../../domain/comment';
import { actorOf, principalOf, sendJson, targetOf, textOf } from '../../http/comments-request';
import { AddCommentCommand } from './add-comment.command';

/**
 * POST on an item or field route adds a comment with the form parameter `text` (the
 * spec's "updates the specified comments with the text": see docs/dash-api.md) and
 * answers with the new comment object.
 */
@Controller('comments')
export class AddCommentController {
  constructor(private readonly commands: CommandBus, private readonly principals: RequestPrincipal) {}

  @Post(':project/:spider/:job/:item')
  addToItem(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.add(p, req, reply);
  }

  @Post(':project/:spider/:job/:item/:field')
  addToField(@Param() p: Record<string, string>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.add(p, req, reply);
  }

  private async add(p: Record<string, string>, req: FastifyRequest, reply: FastifyReply) {
    const principal = await principalOf(this.principals, req);
    const target = targetOf(p, principal);
    const text = await textOf(req);
    const comment = await this.commands.execute<AddCommentCommand, StoredComment>(new AddCommentCommand(target, text, actorOf(principal)));
    return sendJson(reply, JSON.stringify(commentObject(comment, principal.id)));
  }
}
