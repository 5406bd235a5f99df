import { Provider, Type } from '@nestjs/common';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { MongoViewDatabase } from './adapters/mongodb/mongo-view-database';
import { SqliteViewDatabase } from './adapters/sqlite/sqlite-view-database';

/**
 * Binds a view port to the adapter of the configured view store. Only the chosen
 * adapter is constructed, so a SQLite deployment never touches MongoDB and vice versa.
 */
export function viewAdapter(token: symbol, adapters: { sqlite: Type; mongodb: Type }): Provider {
  return {
    provide: token,
    inject: [CONFIG, { token: SqliteViewDatabase, optional: true }, { token: MongoViewDatabase, optional: true }],
    useFactory: (config: CrawlhubConfig, sqlite?: SqliteViewDatabase, mongo?: MongoViewDatabase) => {
      if (config.viewStore.kind === 'sqlite') return new adapters.sqlite(sqlite!);
      return new adapters.mongodb(mongo!);
    },
  };
}
