import { Inject, Injectable } from '@nestjs/common';
import {
  COMMENT_ADDED, COMMENT_ARCHIVED, COMMENT_DELETED, COMMENT_EDITED, COMMENTS_TOPIC, CommentAdded, CommentArchived, CommentDeleted, CommentEdited,
} from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { commentIdAt } from '../domain/comment';
import { COMMENTS_VIEW, CommentsView } from '../ports/comments.view';

/**
 * Decisions made here, when the event is applied: the id of a new comment (from its
 * event's position), its `created` and `archived` times (the events' times), and which
 * comments an archive event archives (those of its target still active at that point
 * of the project's partition). All of them come out the same on replay.
 */
@AsProjection()
@Injectable()
export class CommentsProjection implements Projection {
  readonly topics = [COMMENTS_TOPIC];

  constructor(@Inject(COMMENTS_VIEW) private readonly view: CommentsView) {}

  async apply(e: LoggedEvent): Promise<void> {
    switch (e.event.type) {
      case COMMENT_ADDED: {
        const d = e.event.data as CommentAdded;
        return this.view.add(e, {
          id: commentIdAt(e), project: d.project, spider: d.spider, job: d.job, item: d.item, field: d.field,
          author: d.author, text: d.text, created: e.event.occurredAt, archived: null,
        });
      }
      case COMMENT_EDITED: {
        const d = e.event.data as CommentEdited;
        return this.view.edit(e, d.project, d.id, d.text);
      }
      case COMMENT_ARCHIVED: {
        const d = e.event.data as CommentArchived;
        return this.view.archive(e, { project: d.project, spider: d.spider, job: d.job, item: d.item, field: d.field }, e.event.occurredAt, e.event.id);
      }
      case COMMENT_DELETED: {
        const d = e.event.data as CommentDeleted;
        return this.view.remove(e, d.project, d.id);
      }
    }
  }
}
