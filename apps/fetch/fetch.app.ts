import { DynamicModule, INestApplication, LoggerService, LogLevel, Module } from '@nestjs/common';
import { Core, CoreModule, startHttpApp } from '@crawlhub/platform';
import { FetchApiModule, fetchErrorFilter } from '@crawlhub/fetch';

@Module({})
export class FetchAppModule {
  static with(core: Core): DynamicModule {
    return { module: FetchAppModule, imports: [CoreModule.with(core), FetchApiModule] };
  }
}

/** The fetch API (default :8003, FETCH_PORT): POST /fetch/v2; the work is done by the workers. */
export function startFetchApp(core: Core, logger: LoggerService | LogLevel[] | false): Promise<INestApplication> {
  return startHttpApp(FetchAppModule.with(core), { api: 'fetch', host: core.config.host, port: core.config.ports.fetch, errors: fetchErrorFilter(), logger });
}
