import { DynamicModule, INestApplication, LoggerService, LogLevel, Module } from '@nestjs/common';
import { dashErrorFilter } from '@crawlhub/http';
import { Core, CoreModule, startHttpApp } from '@crawlhub/platform';
import { JobControlApiModule } from '@crawlhub/jobs';

/** The dash API under /api (default :8001): job control and comments. */
@Module({})
export class DashAppModule {
  static with(core: Core): DynamicModule {
    return { module: DashAppModule, imports: [CoreModule.with(core), JobControlApiModule] };
  }
}

export function startDashApp(core: Core, logger: LoggerService | LogLevel[] | false): Promise<INestApplication> {
  return startHttpApp(DashAppModule.with(core), { host: core.config.host, port: core.config.ports.dash, filter: dashErrorFilter(), logger, prefix: 'api' });
}
