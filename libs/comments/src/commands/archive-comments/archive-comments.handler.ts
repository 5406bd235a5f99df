import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { COMMENT_ARCHIVED, CommentArchived, COMMENTS_TOPIC } from '@crawlhub/contracts';
import { EventWriter } from '@crawlhub/views';
import { StoredComment } from '../../domain/comment';
import { COMMENTS_VIEW, CommentsView } from '../../ports/comments.view';
import { ArchiveCommentsCommand } from './archive-comments.command';

/** Which comments get archived is decided when the event is applied; the answer reads that outcome. */
@CommandHandler(ArchiveCommentsCommand)
export class ArchiveCommentsHandler implements ICommandHandler<ArchiveCommentsCommand, StoredComment[]> {
  constructor(private readonly writer: EventWriter, @Inject(COMMENTS_VIEW) private readonly view: CommentsView) {}

  async execute(cmd: ArchiveCommentsCommand): Promise<StoredComment[]> {
    const { project, spider, job, item, field } = cmd.target;
    const data: CommentArchived = { project, spider, job, item, field };
    const event = this.writer.createEvent({ type: COMMENT_ARCHIVED, key: String(project), data, actor: cmd.actor });
    await this.writer.appendAndWait(COMMENTS_TOPIC, [event]);
    return this.view.archivedBy(cmd.target, event.id);
  }
}
