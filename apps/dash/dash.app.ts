import { DynamicModule, INestApplication, LoggerService, LogLevel, Module } from '@nestjs/common';
import { dashErrorFilter } from '@crawlhub/http';
import { Core, CoreModule, startHttpApp } from '@crawlhub/platform';
import { CommentsApiModule, commentsErrorOf } from '@crawlhub/comments';
import { JobControlApiModule, PeriodicScheduler } from '@crawlhub/jobs';
import { LostRunnerWatch, RunnerWatchModule, SpiderRegistryApiModule } from '@crawlhub/runner';
import { DeploysApiModule } from '@crawlhub/deploys';

/** The dash API under /api (default :8001): job control, comments, the spider registry, deploys, and the runner checks. */
@Module({})
export class DashAppModule {
  static with(core: Core): DynamicModule {
    return { module: DashAppModule, imports: [CoreModule.with(core), CommentsApiModule, JobControlApiModule, SpiderRegistryApiModule, DeploysApiModule, RunnerWatchModule] };
  }
}

/** The dash app; it also runs the periodic-jobs scheduler and the lost-runner checks. */
export async function startDashApp(core: Core, logger: LoggerService | LogLevel[] | false): Promise<INestApplication> {
  const app = await startHttpApp(DashAppModule.with(core), { api: 'dash', host: core.config.host, port: core.config.ports.dash, errors: dashErrorFilter().register(commentsErrorOf), logger, prefix: 'api' });
  app.get(PeriodicScheduler).start(core.config.schedulerIntervalMs);
  app.get(LostRunnerWatch).start();
  return app;
}
