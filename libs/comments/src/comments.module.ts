import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ApiError, HttpSupportModule } from '@crawlhub/http';
import { ProjectionLagError, viewAdapter } from '@crawlhub/views';
import { CommentsMongo } from './adapters/mongodb/comments.mongodb';
import { CommentsSqlite } from './adapters/sqlite/comments.sqlite';
import { AddCommentController } from './commands/add-comment/add-comment.controller';
import { AddCommentHandler } from './commands/add-comment/add-comment.handler';
import { ArchiveCommentsController } from './commands/archive-comments/archive-comments.controller';
import { ArchiveCommentsHandler } from './commands/archive-comments/archive-comments.handler';
import { DeleteCommentController } from './commands/delete-comment/delete-comment.controller';
import { DeleteCommentHandler } from './commands/delete-comment/delete-comment.handler';
import { EditCommentController } from './commands/edit-comment/edit-comment.controller';
import { EditCommentHandler } from './commands/edit-comment/edit-comment.handler';
import { CommentsProjection } from './events/comments.projection';
import { COMMENTS_VIEW } from './ports/comments.view';
import { CommentStatsController } from './queries/comment-stats/comment-stats.controller';
import { CommentStatsHandler } from './queries/comment-stats/comment-stats.handler';
import { FindCommentHandler } from './queries/find-comment/find-comment.handler';
import { ReadCommentsController } from './queries/read-comments/read-comments.controller';
import { ReadCommentsHandler } from './queries/read-comments/read-comments.handler';

/** The comments view and its projection; needed by the comments API and by the projector. */
@Module({
  imports: [CqrsModule],
  providers: [viewAdapter(COMMENTS_VIEW, { sqlite: CommentsSqlite, mongodb: CommentsMongo }), CommentsProjection],
  exports: [COMMENTS_VIEW],
})
export class CommentsViewsModule {}

/** The comments API of the dash app: /api/comments/... */
@Module({
  imports: [CqrsModule, HttpSupportModule, CommentsViewsModule],
  controllers: [
    CommentStatsController, ReadCommentsController, AddCommentController, ArchiveCommentsController, EditCommentController, DeleteCommentController,
  ],
  providers: [AddCommentHandler, EditCommentHandler, DeleteCommentHandler, ArchiveCommentsHandler, ReadCommentsHandler, CommentStatsHandler, FindCommentHandler],
})
export class CommentsApiModule {}

/** How errors of the comments context read in the dash style. */
export function commentsErrorOf(e: unknown): ApiError | null {
  if (e instanceof ProjectionLagError) return ApiError.unavailable(e.message);
  return null;
}
