import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { COMMENT_DELETED, CommentDeleted, COMMENTS_TOPIC } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { DeleteCommentCommand } from './delete-comment.command';

@CommandHandler(DeleteCommentCommand)
export class DeleteCommentHandler implements ICommandHandler<DeleteCommentCommand, void> {
  constructor(private readonly writer: EventWriter) {}

  async execute(cmd: DeleteCommentCommand): Promise<void> {
    const data: CommentDeleted = { project: cmd.project, id: cmd.id };
    await this.writer.appendAndWait(COMMENTS_TOPIC, [this.writer.createEvent({ type: COMMENT_DELETED, key: String(cmd.project), data, actor: cmd.actor })]);
  }
}
