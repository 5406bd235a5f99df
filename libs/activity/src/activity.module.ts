import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { HttpSupportModule, ApiError } from '@crawlhub/http';
import { viewAdapter } from '@crawlhub/views';
import { ActivityMongo } from './adapters/mongodb/activity.mongodb';
import { ActivitySqlite } from './adapters/sqlite/activity.sqlite';
import { PostActivityController } from './commands/post-activity/post-activity.controller';
import { PostActivityHandler } from './commands/post-activity/post-activity.handler';
import { ActivityProjection } from './events/activity.projection';
import { ActivityInputError } from './ingestion/activity-body';
import { ACTIVITY_VIEW } from './ports/activity.view';
import { ReadActivityController } from './queries/read-activity/read-activity.controller';
import { ReadActivityHandler } from './queries/read-activity/read-activity.handler';

/**
 * The activity view and its projection; needed by the storage API, by the projector, and
 * by any context that records platform messages from its own projection (it imports this
 * module for ACTIVITY_VIEW and calls `recordActivity`).
 */
@Module({
  providers: [viewAdapter(ACTIVITY_VIEW, { sqlite: ActivitySqlite, mongodb: ActivityMongo }), ActivityProjection],
  exports: [ACTIVITY_VIEW],
})
export class ActivityViewsModule {}

/** The activity part of the storage API on :8002: POST and GET activity/<project>, GET activity/projects. */
@Module({
  imports: [CqrsModule, HttpSupportModule, ActivityViewsModule],
  controllers: [PostActivityController, ReadActivityController],
  providers: [PostActivityHandler, ReadActivityHandler],
})
export class ActivityApiModule {}

/**
 * How errors of the activity context read in the storage API's plain-text style (filters,
 * formats, gzip and projection lag are the storage context's: see `storageErrorOf`).
 */
export function activityErrorOf(e: unknown): ApiError | null {
  if (e instanceof ActivityInputError) return new ApiError(e.status, e.message);
  return null;
}
