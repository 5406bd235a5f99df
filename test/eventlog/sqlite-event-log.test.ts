import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventLog } from '@crawlhub/eventlog';
import { eventLogContract } from '../contract/event-log.contract';

jest.setTimeout(60_000);

eventLogContract('sqlite', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'crawlhub-log-')), 'eventlog.db');
  return {
    settleMs: 2_000,
    open: async () => new SqliteEventLog({ file, partitions: 4, sessionTimeoutMs: 1_000, pollIntervalMs: 20 }),
  };
});
