import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { COMMENT_ADDED, CommentAdded, COMMENTS_TOPIC } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { commentIdAt, StoredComment } from '../../domain/comment';
import { COMMENTS_VIEW, CommentsView } from '../../ports/comments.view';
import { AddCommentCommand } from './add-comment.command';

/** Appends the comment, waits for the view, and answers with the comment as stored (its id comes from the event's position). */
@CommandHandler(AddCommentCommand)
export class AddCommentHandler implements ICommandHandler<AddCommentCommand, StoredComment> {
  constructor(private readonly writer: EventWriter, @Inject(COMMENTS_VIEW) private readonly view: CommentsView) {}

  async execute(cmd: AddCommentCommand): Promise<StoredComment> {
    const { project, spider, job, item, field } = cmd.target;
    const data: CommentAdded = { project, spider, job, item, field, author: cmd.actor.id, text: cmd.text };
    const [at] = await this.writer.appendAndWait(COMMENTS_TOPIC, [this.writer.createEvent({ type: COMMENT_ADDED, key: String(project), data, actor: cmd.actor })]);
    const comment = await this.view.get(commentIdAt(at));
    if (!comment) throw new Error(`comment.added at ${at.topic}/${at.partition}@${at.offset} is applied but not in the view`);
    return comment;
  }
}
