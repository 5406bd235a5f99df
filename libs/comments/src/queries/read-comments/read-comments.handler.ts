import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { StoredComment } from '../../domain/comment';
import { COMMENTS_VIEW, CommentsView } from '../../ports/comments.view';
import { ReadCommentsQuery } from './read-comments.query';

@QueryHandler(ReadCommentsQuery)
export class ReadCommentsHandler implements IQueryHandler<ReadCommentsQuery, StoredComment[]> {
  constructor(@Inject(COMMENTS_VIEW) private readonly view: CommentsView) {}

  execute(q: ReadCommentsQuery): Promise<StoredComment[]> {
    return 'job' in q.scope ? this.view.ofJob(q.scope.job) : this.view.ofTarget(q.scope.target);
  }
}
