// The view contract suites against MongoDB (or the wire-compatible test server).
// Runs only when MONGODB_URI is set (test/run-tests.sh starts a server and sets it).
import { Collection } from 'mongodb';
import { MongoProjectionStore, MongoViewDatabase } from '@crawlhub/views';
import { describeIf, needs } from '../support/skip';
import { JobRecordsView } from '@crawlhub/storage';
import { CommentsMongo } from '../../libs/comments/src/adapters/mongodb/comments.mongodb';
import { commentsViewContract } from '../contract/comments.view.contract';
import { AccessKeysMongo } from '../../libs/access/src/adapters/mongodb/access-keys.mongodb';
import { JobMetadataMongo } from '../../libs/storage/src/adapters/mongodb/job-metadata.mongodb';
import { JobRecordsMongo } from '../../libs/storage/src/adapters/mongodb/job-records.mongodb';
import { accessKeysViewContract } from '../contract/access-keys.view.contract';
import { ActivityMongo } from '../../libs/activity/src/adapters/mongodb/activity.mongodb';
import { activityViewContract } from '../contract/activity.view.contract';
import { jobMetadataViewContract } from '../contract/job-metadata.view.contract';
import { JobsMongo } from '../../libs/jobs/src/adapters/mongodb/jobs.mongodb';
import { jobsViewContract } from '../contract/jobs.view.contract';
import { SpiderCommandsMongo } from '../../libs/runner/src/adapters/mongodb/spider-commands.mongodb';
import { spiderCommandsViewContract } from '../contract/spider-commands.view.contract';
import { jobRecordsViewContract, records } from '../contract/job-records.view.contract';
import { FrontierMongo } from '../../libs/frontier/src/adapters/mongodb/frontier.mongodb';
import { frontierViewContract } from '../contract/frontier.view.contract';
import { FakeProjector, ViewHarness } from '../contract/view-fixture';
import { CollectionsMongo } from '../../libs/collections/src/adapters/mongodb/collections.mongodb';
import { collectionsViewContract } from '../contract/collections.view.contract';
import { ProxyUsageMongo } from '../../libs/proxy-stats/src/adapters/mongodb/proxy-usage.mongodb';
import { proxyUsageViewContract } from '../contract/proxy-usage.view.contract';
import { ProxySessionsMongo } from '../../libs/proxy-sessions/src/adapters/mongodb/proxy-sessions.mongodb';
import { proxySessionsViewContract } from '../contract/proxy-sessions.view.contract';
import { systemClock } from '@crawlhub/contracts';

const uri = process.env.MONGODB_URI ?? '';

/** Makes the n-th bulk write from now on fail, as if the process died there. */
function crashAtBulkWrite(nth: number): () => void {
  const original = Collection.prototype.bulkWrite;
  let calls = 0;
  const spy = jest.spyOn(Collection.prototype, 'bulkWrite').mockImplementation(function (this: Collection, ...args: Parameters<Collection['bulkWrite']>) {
    if (++calls === nth) return Promise.reject(new Error('simulated crash'));
    return original.apply(this, args as never);
  } as never);
  return () => spy.mockRestore();
}

describeIf(needs.mongodb)('MongoDB views', () => {
  jest.setTimeout(300_000);
  const run = `views_${process.pid}_${Date.now().toString(36)}`;
  let n = 0;

  /** A database of its own per fixture (unique per run), dropped on close. */
  const mongo = <V>(make: (views: MongoViewDatabase) => V): ViewHarness<V> => async () => {
    const views = await MongoViewDatabase.connect({ uri, database: `${run}_${n++}` });
    const store = new MongoProjectionStore(views, systemClock);
    return {
      view: make(views),
      store,
      selfGuarded: true,
      close: async () => {
        await views.db.dropDatabase().catch(() => undefined);
        await store.close();
      },
    };
  };

  jobRecordsViewContract('mongodb', mongo((v) => new JobRecordsMongo(v)));
  jobMetadataViewContract('mongodb', mongo((v) => new JobMetadataMongo(v)));
  jobsViewContract('mongodb', mongo((v) => new JobsMongo(v)));
  commentsViewContract('mongodb', mongo((v) => new CommentsMongo(v)));
  accessKeysViewContract('mongodb', mongo((v) => new AccessKeysMongo(v)));
  activityViewContract('mongodb', mongo((v) => new ActivityMongo(v)));
  spiderCommandsViewContract('mongodb', mongo((v) => new SpiderCommandsMongo(v)));
  frontierViewContract('mongodb', mongo((v) => new FrontierMongo(v)));
  collectionsViewContract('mongodb', mongo((v) => new CollectionsMongo(v)));
  proxyUsageViewContract('mongodb', mongo((v) => new ProxyUsageMongo(v)));
  proxySessionsViewContract('mongodb', mongo((v) => new ProxySessionsMongo(v)));

  describe('CollectionsMongo without transactions', () => {
    const VS = { project: 1, type: 'vs' as const, name: 'crash' };
    const recs = (n: number, v: number) => Array.from({ length: n }, (_, i) => ({ key: `k${String(i).padStart(5, '0')}`, json: JSON.stringify({ v }) }));

    it('a crash half-way through a versioned write and a rename, then re-applying the batch, keeps each version once', async () => {
      const f = await mongo((v) => new CollectionsMongo(v))();
      try {
        const p = new FakeProjector(f);
        await p.batch((at) => f.view.write(at, { ...VS, records: recs(2500, 1), ts: 10, keepVersions: 3 }));
        const writes = [
          p.write((at) => f.view.write(at, { ...VS, records: recs(2500, 2), ts: 20, keepVersions: 3 })),
          p.write((at) => f.view.renameCollection(at, 1, 'crash', 'moved')),
        ];
        // write 2: batches of 1000 records, each = versions bulk + records bulk; fail the 4th (records of batch 2).
        const restore = crashAtBulkWrite(4);
        await expect(p.deliver(writes)).rejects.toThrow('simulated crash');
        restore();
        await p.deliver(writes);
        const moved = { ...VS, name: 'moved' };
        expect(await f.view.scan(VS, { low: '', high: null, limit: 10_000 })).toEqual([]);
        const all = await f.view.scan(moved, { low: '', high: null, limit: 10_000 });
        expect(all).toHaveLength(2500);
        expect(all.every((r) => r.json === '{"v":2}' && r.ts === 20)).toBe(true);
        for (const key of ['k00000', 'k01500', 'k02499']) {
          expect((await f.view.versions(moved, key)).map((r) => r.json)).toEqual(['{"v":2}', '{"v":1}']);
        }
      } finally {
        await f.close();
      }
    });
  });

  describe('JobRecordsMongo without transactions', () => {
    const J = { project: 1, spider: 1, job: 1 };
    const items = (count: number, from = 0) => Array.from({ length: count }, (_, i) => ({ n: from + i, url: `http://127.0.0.1/p/${from + i}` }));

    it('a crash half-way through writing an event, then re-applying the batch, neither double counts nor loses records', async () => {
      const f = await mongo((v) => new JobRecordsMongo(v) as JobRecordsView)();
      try {
        const p = new FakeProjector(f);
        await p.batch((at) => f.view.write(at, records('items', J, null, items(1500))));
        // The overwrite spans two bulk writes (1000 + 1000); the second one fails.
        const overwrite = records('items', J, 1000, items(2000, 10_000), 2);
        const append = records('items', J, null, items(10, 20_000), 3);
        const writes = [p.write((at) => f.view.write(at, overwrite)), p.write((at) => f.view.write(at, append))];
        const restore = crashAtBulkWrite(2);
        await expect(p.deliver(writes)).rejects.toThrow('simulated crash');
        restore();
        await p.deliver(writes);
        const all = await f.view.scan({ kind: 'items', project: 1, spider: 1, job: 1, limit: 10_000 });
        expect(all.map((r) => r.pos)).toEqual(Array.from({ length: 3010 }, (_, i) => i));
        expect(all.slice(1000, 3000).map((r) => JSON.parse(r.json).n)).toEqual(items(2000, 10_000).map((x) => x.n));
        expect(all.slice(3000).map((r) => JSON.parse(r.json).n)).toEqual(items(10, 20_000).map((x) => x.n));
        const expected = records('items', J, null, [...items(1000), ...items(2000, 10_000), ...items(10, 20_000)]);
        expect(await f.view.stats('items', J)).toEqual({
          inputValues: 3010,
          inputBytes: expected.sizes.reduce((a, b) => a + b, 0),
          counts: { n: 3010, url: 3010 },
        });
      } finally {
        await f.close();
      }
    });

    it('a crash half-way through committing an upload, then re-applying, commits it once', async () => {
      const f = await mongo((v) => new JobRecordsMongo(v))();
      try {
        const p = new FakeProjector(f);
        await p.batch((at) => f.view.write(at, records('items', J, null, items(5))));
        const stage = (seq: number, objs: object[]) => {
          const b = records('items', J, null, objs);
          return p.write((at) => f.view.stageChunk(at, { upload: 'u', seq, kind: 'items', job: J, lines: b.lines, sizes: b.sizes, counts: b.counts }));
        };
        const writes = [
          stage(0, items(1200, 100)),
          stage(1, items(900, 1300)),
          p.write((at) => f.view.commitUpload(at, { upload: 'u', kind: 'items', job: J, start: null, ts: 7 })),
        ];
        // bulk writes: chunk 0 -> 2 (1000 + 200), chunk 1 -> 1: fail the third.
        const restore = crashAtBulkWrite(3);
        await expect(p.deliver(writes)).rejects.toThrow('simulated crash');
        restore();
        await p.deliver(writes);
        const all = await f.view.scan({ kind: 'items', project: 1, spider: 1, job: 1, limit: 10_000 });
        expect(all.map((r) => JSON.parse(r.json).n)).toEqual([...items(5), ...items(2100, 100)].map((x) => x.n));
        expect((await f.view.stats('items', J))!.inputValues).toBe(2105);
      } finally {
        await f.close();
      }
    });

    it('writes 100k records in batches of 1000 and scans them back (speed report)', async () => {
      const f = await mongo((v) => new JobRecordsMongo(v))();
      try {
        const p = new FakeProjector(f);
        const total = 100_000;
        const batchSize = 1000;
        const batches = Array.from({ length: total / batchSize }, (_, b) =>
          records('items', J, null, Array.from({ length: batchSize }, (_, i) => ({ id: b * batchSize + i, url: `http://127.0.0.1/p/${b * batchSize + i}`, title: 'x'.repeat(100) }))),
        );
        const t0 = Date.now();
        for (let i = 0; i < batches.length; i += 10) {
          await p.batch(...batches.slice(i, i + 10).map((b) => (at: { offset: number; topic: string; partition: number }) => f.view.write(at, b)));
        }
        const writeMs = Date.now() - t0;
        const t1 = Date.now();
        let seen = 0;
        let from: { spider: number; job: number; pos: number } | undefined;
        for (;;) {
          const page = await f.view.scan({ kind: 'items', project: 1, spider: 1, from, limit: 5000 });
          for (const r of page) if (r.pos !== seen++) throw new Error(`out of order at ${r.pos}`);
          if (page.length < 5000) break;
          const last = page[page.length - 1];
          from = { spider: last.spider, job: last.job, pos: last.pos + 1 };
        }
        const readMs = Date.now() - t1;
        expect(seen).toBe(total);
        expect((await f.view.stats('items', J))!.inputValues).toBe(total);
        console.warn(
          `JobRecordsMongo: wrote ${total} records in ${writeMs} ms (${Math.round((total / writeMs) * 1000)}/s); ` +
            `scanned them in pages of 5000 in ${readMs} ms (${Math.round((total / readMs) * 1000)}/s)`,
        );
      } finally {
        await f.close();
      }
    });
  });
});
