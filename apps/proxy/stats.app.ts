import { DynamicModule, INestApplication, LoggerService, LogLevel, Module } from '@nestjs/common';
import { Core, CoreModule, startHttpApp } from '@crawlhub/platform';
import { Clock } from '@crawlhub/contracts';
import { ProxyStatsApiModule, statsErrorFilter } from '@crawlhub/proxy-stats';

@Module({})
export class StatsAppModule {
  static with(core: Core, options: { clock?: Clock } = {}): DynamicModule {
    return { module: StatsAppModule, imports: [CoreModule.with(core), ProxyStatsApiModule.register(options)] };
  }
}

/** The proxy usage statistics API (default :8011, STATS_PORT): GET /stats. */
export function startStatsApp(core: Core, logger: LoggerService | LogLevel[] | false, options: { clock?: Clock } = {}): Promise<INestApplication> {
  return startHttpApp(StatsAppModule.with(core, options), { api: 'stats', host: core.config.host, port: core.config.ports.stats, errors: statsErrorFilter(), logger });
}
