import { Controller, Param, Put, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, RequestPrincipal } from '@crawlhub/http';
import { commentObject, StoredComment } from '../../domain/comment';
import { actorOf, ownComment, principalOf, sendJson, textOf } from '../../http/comments-request';
import { EditCommentCommand } from './edit-comment.command';

/** PUT /comments/<id> with `text`: only the author edits a comment; answers with the edited comment. */
@Controller('comments')
export class EditCommentController {
  constructor(private readonly commands: CommandBus, private readonly queries: QueryBus, private readonly principals: RequestPrincipal) {}

  @Put(':id')
  async edit(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const principal = await principalOf(this.principals, req);
    const comment = await ownComment(this.queries, principal, id, 'edit');
    const text = await textOf(req);
    const edited = await this.commands.execute<EditCommentCommand, StoredComment | null>(new EditCommentCommand(comment.project, comment.id, text, actorOf(principal)));
    if (!edited) throw new ApiError(404, `Comment ${comment.id} not found`);
    return sendJson(reply, JSON.stringify(commentObject(edited, principal.id)));
  }
}
