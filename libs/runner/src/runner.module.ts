import { DynamicModule, Global, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { HttpSupportModule } from '@crawlhub/http';
import { DeployRunnerModule, DeploysViewsModule } from '@crawlhub/deploys';
import { JobsCommandsModule, RUNNABLE_SPIDERS } from '@crawlhub/jobs';
import { StorageCommandsModule } from '@crawlhub/storage';
import { viewAdapter } from '@crawlhub/views';
import { SpiderCommandsMongo } from './adapters/mongodb/spider-commands.mongodb';
import { SpiderCommandsSqlite } from './adapters/sqlite/spider-commands.sqlite';
import { RegisterSpidersController } from './commands/register-spiders/register-spiders.controller';
import { RegisterSpidersHandler } from './commands/register-spiders/register-spiders.handler';
import { UnregisterSpidersHandler } from './commands/unregister-spiders/unregister-spiders.handler';
import { SpiderCommandsProjection } from './events/spider-commands.projection';
import { SPIDER_COMMANDS_VIEW } from './ports/spider-commands.view';
import { ReadSpiderCommandsController } from './queries/read-spider-commands/read-spider-commands.controller';
import { ReadSpiderCommandsHandler } from './queries/read-spider-commands/read-spider-commands.handler';
import { Runner, RUNNER_OPTIONS, RunnerOptions } from './running/runner.service';
import { LostRunnerWatch } from './watch/lost-runner-watch';
import { RunnableSpidersService } from './catalog/runnable-spiders';

/** The spider-commands view and its projection: needed by the projector, the dash API and the runner. */
@Module({
  providers: [viewAdapter(SPIDER_COMMANDS_VIEW, { sqlite: SpiderCommandsSqlite, mongodb: SpiderCommandsMongo }), SpiderCommandsProjection],
  exports: [SPIDER_COMMANDS_VIEW],
})
export class SpiderCommandsViewsModule {}

/** Registering spider commands without HTTP (the CLI). */
@Module({
  imports: [CqrsModule, SpiderCommandsViewsModule],
  providers: [RegisterSpidersHandler, UnregisterSpidersHandler, ReadSpiderCommandsHandler],
  exports: [SpiderCommandsViewsModule],
})
export class SpiderRegistryModule {}

/** Binds RUNNABLE_SPIDERS for run.json (global: the job control module knows neither the registry nor the deploys). */
@Global()
@Module({
  imports: [DeploysViewsModule, SpiderCommandsViewsModule],
  providers: [{ provide: RUNNABLE_SPIDERS, useClass: RunnableSpidersService }],
  exports: [RUNNABLE_SPIDERS],
})
export class RunnableSpidersModule {}

/** The spider registry on the dash API: /api/spiders/register.json, unregister.json, commands.json; what run.json can run. */
@Module({
  imports: [CqrsModule, HttpSupportModule, SpiderRegistryModule, RunnableSpidersModule],
  controllers: [RegisterSpidersController, ReadSpiderCommandsController],
})
export class SpiderRegistryApiModule {}

/** The runner checks of the dash role: the jobs of runners that never came back finish as failed. */
@Module({
  imports: [CqrsModule, JobsCommandsModule, StorageCommandsModule],
  providers: [LostRunnerWatch],
  exports: [LostRunnerWatch],
})
export class RunnerWatchModule {}

/** The runner role: claims pending jobs and runs them as processes. */
@Module({})
export class RunnerModule {
  static with(options: RunnerOptions = {}): DynamicModule {
    return {
      module: RunnerModule,
      imports: [CqrsModule, JobsCommandsModule, StorageCommandsModule, SpiderCommandsViewsModule, DeployRunnerModule],
      providers: [{ provide: RUNNER_OPTIONS, useValue: options }, Runner],
      exports: [Runner],
    };
  }
}
