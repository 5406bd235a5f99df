import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteProjectionStore, SqliteViewDatabase } from '@crawlhub/views';
import { CommentsSqlite } from '../../libs/comments/src/adapters/sqlite/comments.sqlite';
import { commentsViewContract } from '../contract/comments.view.contract';
import { AccessKeysSqlite } from '../../libs/access/src/adapters/sqlite/access-keys.sqlite';
import { JobMetadataSqlite } from '../../libs/storage/src/adapters/sqlite/job-metadata.sqlite';
import { JobRecordsSqlite } from '../../libs/storage/src/adapters/sqlite/job-records.sqlite';
import { accessKeysViewContract } from '../contract/access-keys.view.contract';
import { ActivitySqlite } from '../../libs/activity/src/adapters/sqlite/activity.sqlite';
import { activityViewContract } from '../contract/activity.view.contract';
import { jobMetadataViewContract } from '../contract/job-metadata.view.contract';
import { JobsSqlite } from '../../libs/jobs/src/adapters/sqlite/jobs.sqlite';
import { jobsViewContract } from '../contract/jobs.view.contract';
import { SpiderCommandsSqlite } from '../../libs/runner/src/adapters/sqlite/spider-commands.sqlite';
import { spiderCommandsViewContract } from '../contract/spider-commands.view.contract';
import { jobRecordsViewContract, records } from '../contract/job-records.view.contract';
import { JSON_LINES_PAGE_BYTES } from '@crawlhub/storage';
import { FrontierSqlite } from '../../libs/frontier/src/adapters/sqlite/frontier.sqlite';
import { frontierViewContract } from '../contract/frontier.view.contract';
import { FakeProjector, ViewHarness } from '../contract/view-fixture';
import { CollectionsSqlite } from '../../libs/collections/src/adapters/sqlite/collections.sqlite';
import { collectionsViewContract } from '../contract/collections.view.contract';
import { ProxyUsageSqlite } from '../../libs/proxy-stats/src/adapters/sqlite/proxy-usage.sqlite';
import { proxyUsageViewContract } from '../contract/proxy-usage.view.contract';
import { ProxySessionsSqlite } from '../../libs/proxy-sessions/src/adapters/sqlite/proxy-sessions.sqlite';
import { proxySessionsViewContract } from '../contract/proxy-sessions.view.contract';
import { systemClock } from '@crawlhub/contracts';

jest.setTimeout(60_000);

const root = mkdtempSync(join(tmpdir(), 'crawlhub-views-'));

/** A fresh view database file per fixture; writes run in the store's BEGIN IMMEDIATE/COMMIT. */
let n = 0;
function sqlite<V>(make: (views: SqliteViewDatabase) => V): ViewHarness<V> {
  return async () => {
    const views = new SqliteViewDatabase(join(root, `views-${n++}.db`));
    const store = new SqliteProjectionStore(views, systemClock);
    return {
      view: make(views),
      store,
      selfGuarded: false,
      close: async () => {
        await store.close();
        await views.close();
      },
    };
  };
}

jobRecordsViewContract('sqlite', sqlite((v) => new JobRecordsSqlite(v)));
jobMetadataViewContract('sqlite', sqlite((v) => new JobMetadataSqlite(v)));
jobsViewContract('sqlite', sqlite((v) => new JobsSqlite(v)));
commentsViewContract('sqlite', sqlite((v) => new CommentsSqlite(v)));
accessKeysViewContract('sqlite', sqlite((v) => new AccessKeysSqlite(v)));
activityViewContract('sqlite', sqlite((v) => new ActivitySqlite(v)));
spiderCommandsViewContract('sqlite', sqlite((v) => new SpiderCommandsSqlite(v)));
frontierViewContract('sqlite', sqlite((v) => new FrontierSqlite(v)));
collectionsViewContract('sqlite', sqlite((v) => new CollectionsSqlite(v)));
proxyUsageViewContract('sqlite', sqlite((v) => new ProxyUsageSqlite(v)));
proxySessionsViewContract('sqlite', sqlite((v) => new ProxySessionsSqlite(v)));

describe('JobRecordsSqlite: jobs written before the longest record was kept', () => {
  it('still bound their pages of stored bytes, by measuring them, also after newer small records', async () => {
    const views = new SqliteViewDatabase(join(root, `views-${n++}.db`));
    const store = new SqliteProjectionStore(views, systemClock);
    const view = new JobRecordsSqlite(views);
    const p = new FakeProjector({ view, store, selfGuarded: false, close: async () => undefined });
    const job = { project: 1, spider: 1, job: 1 };
    try {
      const big = Array.from({ length: 3 }, (_, i) => ({ i, s: 'x'.repeat(3_000_000) }));
      await p.batch((at) => view.write(at, records('items', job, null, big)));
      // What a view written by an older version holds: the records and their stats, no longest record.
      views.writer.exec('DELETE FROM job_record_longest');
      await p.batch((at) => view.write(at, records('items', job, null, [{ small: true }])));
      const first = await view.scanJsonLines({ kind: 'items', job, fromPos: 0, limit: 5000 });
      expect(first!.count).toBe(2);
      expect(first!.bytes.length).toBeLessThanOrEqual(JSON_LINES_PAGE_BYTES);
    } finally {
      await store.close();
      await views.close();
    }
  });
});
