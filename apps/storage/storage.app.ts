import { DynamicModule, INestApplication, LoggerService, LogLevel, Module } from '@nestjs/common';
import { storageErrorFilter } from '@crawlhub/http';
import { Core, CoreModule, startHttpApp } from '@crawlhub/platform';
import { StorageApiModule, storageErrorOf } from '@crawlhub/storage';
import { JobqApiModule } from '@crawlhub/jobs';
import { ActivityApiModule, activityErrorOf } from '@crawlhub/activity';
import { CollectionsApiModule, collectionsErrorOf } from '@crawlhub/collections';
import { FrontierApiModule, frontierErrorOf } from '@crawlhub/frontier';

@Module({})
export class StorageAppModule {
  static with(core: Core): DynamicModule {
    return { module: StorageAppModule, imports: [CoreModule.with(core), StorageApiModule, ActivityApiModule, JobqApiModule, FrontierApiModule, CollectionsApiModule] };
  }
}

/** The storage API (default :8002). */
export function startStorageApp(core: Core, logger: LoggerService | LogLevel[] | false): Promise<INestApplication> {
  return startHttpApp(StorageAppModule.with(core), {
    api: 'storage',
    host: core.config.host,
    port: core.config.ports.storage,
    errors: storageErrorFilter().register(storageErrorOf).register(activityErrorOf).register(frontierErrorOf).register(collectionsErrorOf),
    logger,
  });
}
