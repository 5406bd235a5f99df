import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ActivityViewsModule } from '@crawlhub/activity';
import { viewAdapter } from '@crawlhub/views';
import { JobsMongo } from './adapters/mongodb/jobs.mongodb';
import { JobsSqlite } from './adapters/sqlite/jobs.sqlite';
import { JobsProjection } from './events/jobs.projection';
import { JOBS_VIEW } from './ports/jobs.view';

/** The jobs view and its projection: needed by both APIs and by the projector. */
@Module({
  imports: [CqrsModule, ActivityViewsModule],
  providers: [viewAdapter(JOBS_VIEW, { sqlite: JobsSqlite, mongodb: JobsMongo }), JobsProjection],
  exports: [JOBS_VIEW],
})
export class JobsViewsModule {}

