import { Controller, Delete, Param, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequestPrincipal } from '@crawlhub/http';
import { commentObject } from '../../domain/comment';
import { actorOf, ownComment, principalOf, sendJson } from '../../http/comments-request';
import { DeleteCommentCommand } from './delete-comment.command';

/** DELETE /comments/<id>: only the author deletes a comment; answers with the comment as it was. */
@Controller('comments')
export class DeleteCommentController {
  constructor(private readonly commands: CommandBus, private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  @Delete(':id')
  async delete(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await principalOf(this.principals, req);
    const comment = await ownComment(this.queries, principal, id, 'delete');
    await this.commands.execute(new DeleteCommentCommand(comment.project, comment.id, actorOf(principal)));
    return sendJson(reply, JSON.stringify(commentObject(comment, principal.id)));
  }
}
