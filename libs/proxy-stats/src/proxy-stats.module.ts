import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { Clock, CLOCK } from '@crawlhub/contracts';
import { ApiErrorFilter, HttpSupportModule } from '@crawlhub/http';
import { viewAdapter } from '@crawlhub/views';
import { ProxyUsageMongo } from './adapters/mongodb/proxy-usage.mongodb';
import { ProxyUsageSqlite } from './adapters/sqlite/proxy-usage.sqlite';
import { ProxyUsageProjection } from './events/proxy-usage.projection';
import { PROXY_USAGE_VIEW } from './ports/proxy-usage.view';
import { ReadStatsController } from './queries/read-stats/read-stats.controller';
import { ReadStatsHandler } from './queries/read-stats/read-stats.handler';
import { UsageRecorder } from './recorder/usage-recorder';

/** The usage view and its projection; needed by the stats API and by the projector. */
@Module({
  providers: [viewAdapter(PROXY_USAGE_VIEW, { sqlite: ProxyUsageSqlite, mongodb: ProxyUsageMongo }), ProxyUsageProjection],
  exports: [PROXY_USAGE_VIEW],
})
export class ProxyUsageViewsModule {}

/**
 * The recorder the proxy reports to (bind it to the proxy's PROXY_USAGE port with
 * `{ provide: PROXY_USAGE, useExisting: UsageRecorder }`). Needs CoreModule (EventWriter,
 * CONFIG, CLOCK). `clock` replaces the process's CLOCK for this module (tests).
 */
@Module({})
export class ProxyUsageRecorderModule {
  static register(options: { clock?: Clock } = {}): DynamicModule {
    const clock = options.clock ? [{ provide: CLOCK, useValue: options.clock }] : [];
    return {
      module: ProxyUsageRecorderModule,
      providers: [...clock, UsageRecorder],
      exports: [UsageRecorder],
    };
  }
}

/** The usage statistics API (:8011): GET /stats. `clock` replaces the process's CLOCK, which gives "now" (tests). */
@Module({})
export class ProxyStatsApiModule {
  static register(options: { clock?: Clock } = {}): DynamicModule {
    const clock = options.clock ? [{ provide: CLOCK, useValue: options.clock }] : [];
    return {
      module: ProxyStatsApiModule,
      imports: [CqrsModule, HttpSupportModule, ProxyUsageViewsModule],
      controllers: [ReadStatsController],
      providers: [...clock, ReadStatsHandler],
    };
  }
}

/**
 * Errors of the stats API, as JSON: `{"status": "error", "message": ...}` (the dash API's
 * style); a 401 also asks for Basic credentials.
 */
export function statsErrorFilter(): ApiErrorFilter {
  return new ApiErrorFilter('stats', (e) => {
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    if (e.status === 401) headers['www-authenticate'] = 'Basic realm="crawlhub"';
    return { status: e.status, headers, body: JSON.stringify({ status: 'error', message: e.message }) };
  });
}
