import { DynamicModule, INestApplication, LoggerService, LogLevel, Module } from '@nestjs/common';
import { dashErrorFilter } from '@crawlhub/http';
import { Core, CoreModule, startHttpApp } from '@crawlhub/platform';
import { CommentsApiModule, commentsErrorOf } from '@crawlhub/comments';
import { JobControlApiModule, PeriodicScheduler } from '@crawlhub/jobs';
import { LostRunnerWatch, RunnerWatchModule, SpiderRegistryApiModule } from '@crawlhub/runner';
import { DeploysApiModule } from '@crawlhub/deploys';
import { CONSOLE_ROUTES, ConsoleModule, ConsoleUpstreams } from '@crawlhub/console';

/** The dash API under /api (default :8001): job control, comments, the spider registry, deploys, and the runner checks. */
@Module({})
export class DashAppModule {
  static with(core: Core, upstreams: ConsoleUpstreams): DynamicModule {
    return {
      module: DashAppModule,
      imports: [CoreModule.with(core), CommentsApiModule, JobControlApiModule, SpiderRegistryApiModule, DeploysApiModule, RunnerWatchModule, ConsoleModule.register(upstreams)],
    };
  }
}

/** The public APIs the console forwards to: CONSOLE_STORAGE_URL / CONSOLE_STATS_URL, else this host's own ports. */
export function consoleUpstreamsOf(core: Core, given: Partial<ConsoleUpstreams> = {}): ConsoleUpstreams {
  const { host, ports, console: settings } = core.config;
  // A listen address of "any" is reached on loopback.
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    storage: given.storage ?? settings.storageUrl ?? `http://${reachable}:${ports.storage}/`,
    stats: given.stats ?? settings.statsUrl ?? `http://${reachable}:${ports.stats}/`,
  };
}

/**
 * The dash app: the API under /api and the web console at / (docs/console.md); it also
 * runs the periodic-jobs scheduler and the lost-runner checks. `upstreams` overrides where
 * the console forwards (tests whose APIs listen on free ports).
 */
export async function startDashApp(core: Core, logger: LoggerService | LogLevel[] | false, upstreams: Partial<ConsoleUpstreams> = {}): Promise<INestApplication> {
  const app = await startHttpApp(DashAppModule.with(core, consoleUpstreamsOf(core, upstreams)), {
    api: 'dash',
    host: core.config.host,
    port: core.config.ports.dash,
    errors: dashErrorFilter().register(commentsErrorOf),
    logger,
    prefix: 'api',
    unprefixed: CONSOLE_ROUTES,
  });
  app.get(PeriodicScheduler).start(core.config.schedulerIntervalMs);
  app.get(LostRunnerWatch).start();
  return app;
}
