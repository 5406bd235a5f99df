import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { StoredComment } from '../../domain/comment';
import { COMMENTS_VIEW, CommentsView } from '../../ports/comments.view';
import { FindCommentQuery } from './find-comment.query';

@QueryHandler(FindCommentQuery)
export class FindCommentHandler implements IQueryHandler<FindCommentQuery, StoredComment | null> {
  constructor(@Inject(COMMENTS_VIEW) private readonly view: CommentsView) {}

  execute(q: FindCommentQuery): Promise<StoredComment | null> {
    return this.view.get(q.id);
  }
}
