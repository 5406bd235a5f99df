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
import { jobRecordsViewContract } from '../contract/job-records.view.contract';
import { FrontierSqlite } from '../../libs/frontier/src/adapters/sqlite/frontier.sqlite';
import { frontierViewContract } from '../contract/frontier.view.contract';
import { ViewHarness } from '../contract/view-fixture';
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
        views.close();
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
