import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ActivityViewsModule } from '@crawlhub/activity';
import { viewAdapter } from '@crawlhub/views';
import { JobsMongo } from './adapters/mongodb/jobs.mongodb';
import { JobsSqlite } from './adapters/sqlite/jobs.sqlite';
import { SchedulesMongo } from './adapters/mongodb/schedules.mongodb';
import { SchedulesSqlite } from './adapters/sqlite/schedules.sqlite';
import { SchedulesProjection } from './events/schedules.projection';
import { SCHEDULES_VIEW } from './ports/schedules.view';
import { JobsProjection } from './events/jobs.projection';
import { JOBS_VIEW } from './ports/jobs.view';

/** The jobs view and its projection: needed by both APIs and by the projector. */
@Module({
  imports: [CqrsModule, ActivityViewsModule],
  providers: [viewAdapter(JOBS_VIEW, { sqlite: JobsSqlite, mongodb: JobsMongo }), JobsProjection, viewAdapter(SCHEDULES_VIEW, { sqlite: SchedulesSqlite, mongodb: SchedulesMongo }), SchedulesProjection],
  exports: [JOBS_VIEW, SCHEDULES_VIEW],
})
export class JobsViewsModule {}

