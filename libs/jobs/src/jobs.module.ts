import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { HttpSupportModule } from '@crawlhub/http';
import { StorageViewsModule } from '@crawlhub/storage';
import { CancelJobsController } from './commands/cancel-jobs/cancel-jobs.controller';
import { CancelJobsHandler } from './commands/cancel-jobs/cancel-jobs.handler';
import { StopJobsController } from './commands/cancel-jobs/stop-jobs.controller';
import { ChangeScrapySettingsController } from './commands/change-scrapy-settings/change-scrapy-settings.controller';
import { ChangeScrapySettingsHandler } from './commands/change-scrapy-settings/change-scrapy-settings.handler';
import { ChangeSettingsController } from './commands/change-settings/change-settings.controller';
import { ChangeSettingsHandler } from './commands/change-settings/change-settings.handler';
import { ChangeSpiderController } from './commands/change-spider/change-spider.controller';
import { ChangeSpiderHandler } from './commands/change-spider/change-spider.handler';
import { SpiderIdsController } from './commands/change-spider/spider-ids.controller';
import { CheckRunnersHandler } from './commands/check-runners/check-runners.handler';
import { PurgeJobController } from './commands/purge-job/purge-job.controller';
import { PurgeJobHandler } from './commands/purge-job/purge-job.handler';
import { PushJobController } from './commands/push-job/push-job.controller';
import { PushJobHandler } from './commands/push-job/push-job.handler';
import { RunJobController } from './commands/run-job/run-job.controller';
import { RunJobHandler } from './commands/run-job/run-job.handler';
import { RunnerHeartbeatHandler } from './commands/runner-heartbeat/runner-heartbeat.handler';
import { BotgroupsController } from './commands/set-botgroup/botgroups.controller';
import { SetBotgroupHandler } from './commands/set-botgroup/set-botgroup.handler';
import { SchedulesController } from './commands/set-schedule/schedules.controller';
import { SetScheduleHandler } from './commands/set-schedule/set-schedule.handler';
import { JobsRequests } from './commands/shared/jobs-requests';
import { StartJobController } from './commands/start-job/start-job.controller';
import { StartJobHandler } from './commands/start-job/start-job.handler';
import { TagJobsController } from './commands/tag-jobs/tag-jobs.controller';
import { TagJobsHandler } from './commands/tag-jobs/tag-jobs.handler';
import { DeleteJobsController } from './commands/update-jobs/delete-jobs.controller';
import { UpdateJobsController } from './commands/update-jobs/update-jobs.controller';
import { UpdateJobsHandler } from './commands/update-jobs/update-jobs.handler';
import { JobTokens } from './http/jobs-principal';
import { JobsForStorageModule } from './http/jobs-for-storage.module';
import { JobsViewsModule } from './jobs.views.module';
import { DashJobsController } from './queries/dash-jobs/dash-jobs.controller';
import { GetBotgroupsHandler } from './queries/get-botgroups/get-botgroups.handler';
import { GetJobHandler } from './queries/get-job/get-job.handler';
import { GetScrapySettingsHandler, GetSettingsHandler } from './queries/get-settings/get-settings.handler';
import { GetSpiderHandler, ListSpidersHandler } from './queries/get-spider/get-spider.handler';
import { JobStateCountsHandler } from './queries/job-state-counts/job-state-counts.handler';
import { ListSchedulesHandler } from './queries/list-schedules/list-schedules.handler';
import { JobAuditController } from './queries/job-audit/job-audit.controller';
import { JobsMetrics } from './queries/jobs-metrics/jobs-metrics';
import { JobqListController } from './queries/list-jobs/jobq-list.controller';
import { CountJobsHandler, ListJobsHandler } from './queries/list-jobs/list-jobs.handler';
import { PeriodicScheduler } from './scheduler/periodic-scheduler';

const COMMAND_HANDLERS = [
  PushJobHandler,
  RunJobHandler,
  StartJobHandler,
  UpdateJobsHandler,
  CancelJobsHandler,
  TagJobsHandler,
  PurgeJobHandler,
  ChangeSpiderHandler,
  ChangeSettingsHandler,
  ChangeScrapySettingsHandler,
  CheckRunnersHandler,
  RunnerHeartbeatHandler,
  SetBotgroupHandler,
  SetScheduleHandler,
];
const QUERY_HANDLERS = [
  ListJobsHandler,
  CountJobsHandler,
  GetJobHandler,
  GetSpiderHandler,
  ListSpidersHandler,
  JobStateCountsHandler,
  GetSettingsHandler,
  GetScrapySettingsHandler,
  GetBotgroupsHandler,
  ListSchedulesHandler,
];

/**
 * Every use case of the jobs context, without HTTP: its command and query handlers and the
 * write path they share (JobsRequests). The one module that provides them, imported by the
 * HTTP modules below and by the runner's: a handler provided by two modules of one app is
 * registered twice (CqrsModule warns "already registered" and keeps the last).
 */
@Module({
  imports: [CqrsModule, JobsViewsModule],
  providers: [JobsRequests, JobTokens, ...COMMAND_HANDLERS, ...QUERY_HANDLERS],
  exports: [JobsViewsModule, JobTokens],
})
export class JobsCommandsModule {}

/** JobQ on the storage port (:8002). */
@Module({
  imports: [CqrsModule, HttpSupportModule, JobsCommandsModule, JobsForStorageModule, StorageViewsModule],
  controllers: [
    PushJobController,
    StartJobController,
    UpdateJobsController,
    CancelJobsController,
    PurgeJobController,
    SpiderIdsController,
    JobqListController,
    ChangeSettingsController,
    BotgroupsController,
  ],
})
export class JobqApiModule {}

/** Job control on the dash port (:8001, under /api). */
@Module({
  imports: [CqrsModule, HttpSupportModule, JobsCommandsModule, StorageViewsModule],
  controllers: [
    RunJobController,
    TagJobsController,
    StopJobsController,
    DeleteJobsController,
    DashJobsController,
    JobAuditController,
    SchedulesController,
    ChangeSpiderController,
    ChangeScrapySettingsController,
  ],
  providers: [PeriodicScheduler, JobsMetrics],
  exports: [PeriodicScheduler],
})
export class JobControlApiModule {}
