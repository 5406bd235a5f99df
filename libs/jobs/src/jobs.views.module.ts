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
import { JobsDecider } from './decider/jobs-decider';

/** The jobs view, its projection and its decider: needed by both APIs and by the projector (which alone runs the decider). */
@Module({
  imports: [CqrsModule, ActivityViewsModule],
  providers: [viewAdapter(JOBS_VIEW, { sqlite: JobsSqlite, mongodb: JobsMongo }), JobsProjection, JobsDecider, viewAdapter(SCHEDULES_VIEW, { sqlite: SchedulesSqlite, mongodb: SchedulesMongo }), SchedulesProjection],
  exports: [JOBS_VIEW, SCHEDULES_VIEW],
})
export class JobsViewsModule {}

