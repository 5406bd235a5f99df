import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JobCommentStats } from '../../domain/comment';
import { COMMENTS_VIEW, CommentsView } from '../../ports/comments.view';
import { CommentStatsQuery } from './comment-stats.query';

@QueryHandler(CommentStatsQuery)
export class CommentStatsHandler implements IQueryHandler<CommentStatsQuery, JobCommentStats[]> {
  constructor(@Inject(COMMENTS_VIEW) private readonly view: CommentsView) {}

  execute(q: CommentStatsQuery): Promise<JobCommentStats[]> {
    return this.view.stats(q.project);
  }
}
