import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEvent, DEPLOY_FAILED, DEPLOY_REQUESTED, DeployFailed, DeployRequested, DEPLOYS_TOPIC, systemClock, systemIds } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { SqliteProjectionStore, SqliteViewDatabase } from '@crawlhub/views';
import { DeploysSqlite } from '../adapters/sqlite/deploys.sqlite';
import { DeploysProjection } from './deploys.projection';

const actor = { kind: 'system' as const, id: 'spec' };
const blob = { sha256: 'a'.repeat(64), size: 1, filename: 'p.egg' };
const stamps = { clock: systemClock, ids: systemIds };

/** A replay applies a deploy's request and its outcome in one batch (one transaction): the outcome must find the request. */
describe('DeploysProjection on SQLite', () => {
  it('applies a failure that arrives in the same batch as its request', async () => {
    const views = new SqliteViewDatabase(join(mkdtempSync(join(tmpdir(), 'deploys-view-')), 'views.db'));
    try {
      const view = new DeploysSqlite(views);
      const store = new SqliteProjectionStore(views, systemClock);
      const projection = new DeploysProjection(view);
      const requested: DeployRequested = { project: 1, request: 'r1', version: 'v1', stack: 'scrapy:2.13', egg: blob, eggs: [], requirements: null };
      const failed: DeployFailed = { project: 1, request: 'r1', reason: 'no spiders', logTail: [], builder: 'runner-1' };
      const events: LoggedEvent[] = [
        { topic: DEPLOYS_TOPIC, partition: 0, offset: 0, event: createEvent({ type: DEPLOY_REQUESTED, key: '1', data: requested, actor }, stamps) },
        { topic: DEPLOYS_TOPIC, partition: 0, offset: 1, event: createEvent({ type: DEPLOY_FAILED, key: '1', data: failed, actor }, stamps) },
      ];
      await store.applyBatch(DEPLOYS_TOPIC, 0, events, (e) => projection.apply(e));
      expect(await view.byRequest(1, 'r1')).toMatchObject({ state: 'failed', failure: 'no spiders' });
    } finally {
      await views.close();
    }
  });
});
