import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { JOB_TOKEN_SECRET } from '@crawlhub/access';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { CLOCK, EventStamps, IDS, systemClock, systemIds } from '@crawlhub/contracts';
import { EVENT_LOG, EventLog, openEventLog } from '@crawlhub/eventlog';
import { instrumentEventLog } from './instrumented-event-log';
import type { Core } from './core.types';
import { forgetViewLag } from './ops';
import {
  DecidingPorts, EventWriter, MongoProjectionStore, MongoViewDatabase, PROJECTION_STORE, ProjectionStore, SqliteProjectionStore, SqliteViewDatabase,
} from '@crawlhub/views';

/**
 * The side effects every app shares, opened once per process: the event log and the
 * view store. Apps running in one process get the same instances, so a write wakes
 * the projector and the waiting request without polling.
 */
// Defined beside the tokens it signs (libs/access); exported here too, where the apps have always taken it.
export { JOB_TOKEN_SECRET };
/** The process's Core itself, for what serves every role (the ops endpoints, http-ops.ts). */
export const CORE = Symbol('CORE');

export type { Core };

/** `clock` and `ids` replace the system ones (tests that drive time). */
export async function openCore(config: CrawlhubConfig, stamps: Partial<EventStamps> = {}): Promise<Core> {
  const clock = stamps.clock ?? systemClock;
  const eventLog = instrumentEventLog(openEventLog(config));
  let views: Core['views'];
  let projections: ProjectionStore;
  if (config.viewStore.kind === 'sqlite') {
    const db = new SqliteViewDatabase(join(config.dataDir, 'views.db'));
    views = { kind: 'sqlite', db };
    projections = new SqliteProjectionStore(db, clock);
  } else {
    const db = await MongoViewDatabase.connect(config.viewStore);
    views = { kind: 'mongodb', db };
    projections = new MongoProjectionStore(db, clock);
  }
  const core: Core = {
    config,
    jobTokenSecret: config.jobTokenSecret ?? persistentSecret(join(config.dataDir, 'job-token-secret')),
    eventLog,
    views,
    projections,
    clock,
    ids: stamps.ids ?? systemIds,
    close: async () => {
      forgetViewLag(core);
      await projections.close();
      await eventLog.close();
      if (views.kind === 'sqlite') await views.db.close();
    },
  };
  return core;
}

@Global()
@Module({})
export class CoreModule {
  static with(core: Core): DynamicModule {
    const providers: Provider[] = [
      { provide: CORE, useValue: core },
      { provide: CONFIG, useValue: core.config },
      { provide: EVENT_LOG, useValue: core.eventLog },
      { provide: JOB_TOKEN_SECRET, useValue: core.jobTokenSecret },
      { provide: PROJECTION_STORE, useValue: core.projections },
      { provide: CLOCK, useValue: core.clock },
      { provide: IDS, useValue: core.ids },
      { provide: core.views.kind === 'sqlite' ? SqliteViewDatabase : MongoViewDatabase, useValue: core.views.db },
      EventWriter,
      DecidingPorts,
    ];
    return {
      module: CoreModule,
      imports: [CqrsModule.forRoot(), DiscoveryModule],
      providers,
      exports: [...providers.map((p) => ('provide' in p ? p.provide : p)), CqrsModule, DiscoveryModule],
    };
  }
}

/** A secret created once and kept in a file (0600) under the data dir. */
function persistentSecret(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}
