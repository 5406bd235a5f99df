import type { CrawlhubConfig } from '@crawlhub/config';
import type { Clock, Ids } from '@crawlhub/contracts';
import type { EventLog } from '@crawlhub/eventlog';
import type { MongoViewDatabase, ProjectionStore, SqliteViewDatabase } from '@crawlhub/views';

/**
 * The side effects every app shares, opened once per process by openCore (core.ts). The
 * type lives apart so that what core.ts itself uses (the ops endpoints' view lag, ops.ts)
 * can name it without an import cycle.
 */
export interface Core {
  config: CrawlhubConfig;
  jobTokenSecret: string;
  eventLog: EventLog;
  views: { kind: 'sqlite'; db: SqliteViewDatabase } | { kind: 'mongodb'; db: MongoViewDatabase };
  projections: ProjectionStore;
  /** The time and ids of every event, view row and answer (bound to CLOCK and IDS). */
  clock: Clock;
  ids: Ids;
  close(): Promise<void>;
}
