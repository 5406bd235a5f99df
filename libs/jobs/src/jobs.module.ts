import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { HttpSupportModule } from '@crawlhub/http';
import { StorageViewsModule } from '@crawlhub/storage';
import { ScrapySettingsController } from './commands/change-scrapy-settings/scrapy-settings.controller';
import { ProjectSettingsController } from './commands/change-settings/project-settings.controller';
import { SpidersV2Controller } from './commands/change-spider/spiders-v2.controller';
import { PushJobController } from './commands/push-job/push-job.controller';
import { RequestJobsChangeHandler } from './commands/request-jobs-change/request-jobs-change.handler';
import { RunJobController } from './commands/run-job/run-job.controller';
import { RunnerHeartbeatHandler } from './commands/runner-heartbeat/runner-heartbeat.handler';
import { BotgroupsController } from './commands/set-botgroup/botgroups.controller';
import { SetBotgroupHandler } from './commands/set-botgroup/set-botgroup.handler';
import { SchedulesController } from './commands/set-schedule/schedules.controller';
import { SetScheduleHandler } from './commands/set-schedule/set-schedule.handler';
import { PeriodicScheduler } from './scheduler/periodic-scheduler';
import { JobsMetrics } from './queries/jobs-metrics/jobs-metrics';
import { StartJobController } from './commands/start-job/start-job.controller';
import { UpdateJobsController } from './commands/update-jobs/update-jobs.controller';
import { PurgeJobController } from './commands/purge-job/purge-job.controller';
import { JobTokens } from './http/jobs-principal';
import { JobsForStorageModule } from './http/jobs-for-storage.module';
import { JobsViewsModule } from './jobs.views.module';
import { DashJobsController } from './queries/dash-jobs/dash-jobs.controller';
import { JobAuditController } from './queries/job-audit/job-audit.controller';
import { JobqListController } from './queries/list-jobs/jobq-list.controller';
import { CountJobsHandler, ListJobsHandler } from './queries/list-jobs/list-jobs.handler';

const shared = [RequestJobsChangeHandler, ListJobsHandler, CountJobsHandler, JobTokens];

/** The job-change command and runner heartbeats without HTTP (the runner claims, finishes and heartbeats through them). */
@Module({
  imports: [CqrsModule, JobsViewsModule],
  providers: [RequestJobsChangeHandler, RunnerHeartbeatHandler],
  exports: [JobsViewsModule],
})
export class JobsCommandsModule {}

/** JobQ on the storage port (:8002). */
@Module({
  imports: [CqrsModule, HttpSupportModule, JobsViewsModule, JobsForStorageModule, StorageViewsModule],
  controllers: [PushJobController, StartJobController, UpdateJobsController, PurgeJobController, JobqListController, ProjectSettingsController, BotgroupsController],
  providers: [...shared, SetBotgroupHandler],
})
export class JobqApiModule {}

/** Job control on the dash port (:8001, under /api). */
@Module({
  imports: [CqrsModule, HttpSupportModule, JobsViewsModule, StorageViewsModule],
  controllers: [RunJobController, DashJobsController, JobAuditController, SchedulesController, SpidersV2Controller, ScrapySettingsController],
  providers: [...shared, SetScheduleHandler, PeriodicScheduler, JobsMetrics],
  exports: [PeriodicScheduler],
})
export class JobControlApiModule {}
