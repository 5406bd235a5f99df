import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { COMMENT_EDITED, CommentEdited, COMMENTS_TOPIC } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { StoredComment } from '../../domain/comment';
import { COMMENTS_VIEW, CommentsView } from '../../ports/comments.view';
import { EditCommentCommand } from './edit-comment.command';

/** Answers with the comment after the edit, or null when it was deleted before the edit applied. */
@CommandHandler(EditCommentCommand)
export class EditCommentHandler implements ICommandHandler<EditCommentCommand, StoredComment | null> {
  constructor(private readonly writer: EventWriter, @Inject(COMMENTS_VIEW) private readonly view: CommentsView) {}

  async execute(cmd: EditCommentCommand): Promise<StoredComment | null> {
    const data: CommentEdited = { project: cmd.project, id: cmd.id, text: cmd.text };
    await this.writer.appendAndWait(COMMENTS_TOPIC, [this.writer.createEvent({ type: COMMENT_EDITED, key: String(cmd.project), data, actor: cmd.actor })]);
    return this.view.get(cmd.id);
  }
}
