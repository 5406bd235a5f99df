import { DynamicModule, INestApplication, LoggerService, LogLevel, Module } from '@nestjs/common';
import { dashErrorFilter } from '@crawlhub/http';
import { Core, CoreModule, startHttpApp } from '@crawlhub/platform';
import { CommentsApiModule, commentsErrorOf } from '@crawlhub/comments';
import { JobControlApiModule, PeriodicScheduler } from '@crawlhub/jobs';
import { SpiderRegistryApiModule } from '@crawlhub/runner';
import { DeploysApiModule } from '@crawlhub/deploys';

/** The dash API under /api (default :8001): job control, comments, the spider registry and deploys. */
@Module({})
export class DashAppModule {
  static with(core: Core): DynamicModule {
    return { module: DashAppModule, imports: [CoreModule.with(core), CommentsApiModule, JobControlApiModule, SpiderRegistryApiModule, DeploysApiModule] };
  }
}

/** The dash app; it also runs the periodic-jobs scheduler. */
export async function startDashApp(core: Core, logger: LoggerService | LogLevel[] | false): Promise<INestApplication> {
  const app = await startHttpApp(DashAppModule.with(core), { host: core.config.host, port: core.config.ports.dash, filter: dashErrorFilter().register(commentsErrorOf), logger, prefix: 'api' });
  app.get(PeriodicScheduler).start(core.config.schedulerIntervalMs);
  return app;
}
