import { JobKey } from '@crawlhub/contracts';
import { countKeys, } from '../../libs/storage/src/domain/stats-math';
import { JobRecordsView, JSON_LINES_PAGE_BYTES, normalizeRecord, RecordBatch, RecordKind, StagedChunk, StoredRecord } from '@crawlhub/storage';
import { eachViewFixture, FakeProjector, ViewFixture, ViewHarness } from './view-fixture';

const J1: JobKey = { project: 1, spider: 1, job: 1 };

export function records(kind: RecordKind, job: JobKey, start: number | null, objs: object[], ts = 1_000): RecordBatch {
  const n = objs.map((o) => normalizeRecord(kind, o));
  return { kind, job, start, lines: n.map((r) => r.json), sizes: n.map((r) => r.size), counts: countKeys(n.map((r) => r.countKeys)), ts };
}

function chunk(upload: string, seq: number, kind: RecordKind, job: JobKey, objs: object[]): StagedChunk {
  const { lines, sizes, counts } = records(kind, job, null, objs);
  return { upload, seq, kind, job, lines, sizes, counts };
}

const items = (n: number, from = 0, extra: object = {}) => Array.from({ length: n }, (_, i) => ({ n: from + i, ...extra }));
const sizeOf = (kind: RecordKind, objs: object[]) => objs.reduce((a, o) => a + normalizeRecord(kind, o).size, 0);

export function jobRecordsViewContract(name: string, harness: ViewHarness<JobRecordsView>): void {
  describe(`JobRecordsView contract: ${name}`, () => {
    let f: ViewFixture<JobRecordsView>;
    let view: JobRecordsView;
    let p: FakeProjector;
    eachViewFixture(harness, (fixture, projector) => ((f = fixture), (view = fixture.view), (p = projector)));

    const write = (b: RecordBatch) => p.batch((at) => view.write(at, b));
    const jobScan = (kind: RecordKind = 'items', job: JobKey = J1, limit = 1000) => view.scan({ kind, project: job.project, spider: job.spider, job: job.job, limit });
    const positions = (rs: StoredRecord[]) => rs.map((r) => r.pos);
    const values = (rs: StoredRecord[]) => rs.map((r) => JSON.parse(r.json));

    it('appends at the next position and keeps each record as written', async () => {
      expect(await jobScan()).toEqual([]);
      expect(await view.stats('items', J1)).toBeNull();
      await write(records('items', J1, null, [{ b: 1, a: 'x' }, { z: null, big: 12345678901234567890 }], 111));
      await write(records('items', J1, null, [{ c: [1, 2] }], 222));
      const got = await jobScan();
      expect(got).toEqual([
        { spider: 1, job: 1, pos: 0, ts: 111, json: '{"b":1,"a":"x"}' },
        { spider: 1, job: 1, pos: 1, ts: 111, json: '{"z":null,"big":12345678901234567000}' },
        { spider: 1, job: 1, pos: 2, ts: 222, json: '{"c":[1,2]}' },
      ]);
      const stats = await view.stats('items', J1);
      expect(stats).toEqual({
        inputValues: 3,
        inputBytes: sizeOf('items', [{ b: 1, a: 'x' }, { z: null, big: 12345678901234567890 }, { c: [1, 2] }]),
        counts: { b: 1, a: 1, z: 1, big: 1, c: 1 },
      });
      expect(Object.keys(stats!.counts)).toEqual(['b', 'a', 'z', 'big', 'c']);
    });

    it('keeps the JSON text of a record byte for byte (key order, unicode, escapes)', async () => {
      const line = '{"z":1,"a":"é\\u2028\\"","$x":{"a.b":2},"n":1.5e300}';
      const batch: RecordBatch = { kind: 'items', job: J1, start: null, lines: [line], sizes: [10], counts: { z: 1, a: 1, $x: 1, n: 1 }, ts: 5 };
      await write(batch);
      expect((await jobScan())[0].json).toBe(line);
      expect((await view.stats('items', J1))!.counts).toEqual({ z: 1, a: 1, $x: 1, n: 1 });
    });

    it('writes at an explicit start, and appends after a gap', async () => {
      await write(records('items', J1, 0, items(2)));
      await write(records('items', J1, 5, items(1, 5)));
      expect(positions(await jobScan())).toEqual([0, 1, 5]);
      await write(records('items', J1, null, items(2, 6)));
      expect(positions(await jobScan())).toEqual([0, 1, 5, 6, 7]);
      expect(values(await jobScan()).map((v) => v.n)).toEqual([0, 1, 5, 6, 7]);
      expect((await view.stats('items', J1))!.inputValues).toBe(5);
    });

    it('overwrites by position: the count stays, the stats follow the new records', async () => {
      await write(records('items', J1, null, items(5, 0, { old: true }), 100));
      await write(records('items', J1, 1, [{ fresh: 1 }, { fresh: 2, more: 'x' }], 200));
      const got = await jobScan();
      expect(positions(got)).toEqual([0, 1, 2, 3, 4]);
      expect(values(got)).toEqual([{ n: 0, old: true }, { fresh: 1 }, { fresh: 2, more: 'x' }, { n: 3, old: true }, { n: 4, old: true }]);
      expect(got.map((r) => r.ts)).toEqual([100, 200, 200, 100, 100]);
      const kept = [{ n: 0, old: true }, { n: 3, old: true }, { n: 4, old: true }];
      expect(await view.stats('items', J1)).toEqual({
        inputValues: 5,
        inputBytes: sizeOf('items', [...kept, { fresh: 1 }, { fresh: 2, more: 'x' }]),
        counts: { n: 3, old: 3, fresh: 2, more: 1 },
      });
    });

    it('an overwrite that runs past the end extends the job; a count that falls to zero disappears', async () => {
      await write(records('items', J1, null, [{ a: 1 }, { a: 2 }, { gone: 1 }]));
      await write(records('items', J1, 2, [{ a: 3 }, { a: 4 }, { a: 5 }]));
      expect(values(await jobScan())).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }, { a: 4 }, { a: 5 }]);
      expect(await view.stats('items', J1)).toEqual({ inputValues: 5, inputBytes: sizeOf('items', items(5).map((_, i) => ({ a: i + 1 }))), counts: { a: 5 } });
      // Appending continues after the new end.
      await write(records('items', J1, null, [{ b: 1 }]));
      expect(positions(await jobScan())).toEqual([0, 1, 2, 3, 4, 5]);
    });

    it('stats of logs and requests count levels and fields; kinds are separate', async () => {
      await write(records('logs', J1, null, [{ time: 1, level: 20, message: 'a' }, { time: 2, level: 30, message: 'bb' }, { level: 20, message: 'c' }]));
      await write(records('requests', J1, null, [{ time: 1, method: 'GET', url: 'http://127.0.0.1/', status: 200, duration: 3, rs: 10, fp: 'f' }]));
      await write(records('logs', J1, 1, [{ time: 3, level: 40, message: 'd' }]));
      expect(await view.stats('logs', J1)).toEqual({ inputValues: 3, inputBytes: sizeOf('logs', [{ level: 20, message: 'a' }, { level: 40, message: 'd' }, { level: 20, message: 'c' }]), counts: { 20: 2, 40: 1 } });
      expect((await view.stats('requests', J1))!.counts).toEqual({ method: 1, url: 1, status: 1, duration: 1, rs: 1, fp: 1 });
      expect(await view.stats('items', J1)).toBeNull();
      expect(values(await jobScan('logs')).map((v) => v.message)).toEqual(['a', 'd', 'c']);
      expect(await jobScan('items')).toEqual([]);
    });

    it('reads the stats of a page of jobs at once, each kind apart, jobs without records absent', async () => {
      const J2: JobKey = { project: 1, spider: 2, job: 7 };
      const other: JobKey = { project: 2, spider: 1, job: 1 };
      await write(records('items', J1, null, items(3)));
      await write(records('logs', J1, null, [{ level: 40, message: 'e' }]));
      await write(records('requests', J2, null, [{ time: 1, method: 'GET', url: 'http://127.0.0.1/', status: 200, duration: 1, rs: 1 }]));
      await write(records('items', other, null, items(9)));
      const stats = await view.statsOfJobs([J1, J2, { project: 1, spider: 3, job: 1 }]);
      expect([...stats.keys()].sort()).toEqual(['1/1/1', '1/2/7']);
      expect(stats.get('1/1/1')).toEqual({ items: await view.stats('items', J1), logs: await view.stats('logs', J1) });
      expect(stats.get('1/2/7')).toEqual({ requests: await view.stats('requests', J2) });
      expect((await view.statsOfJobs([])).size).toBe(0);
    });

    describe('scans', () => {
      // Written out of order, across two spiders, several jobs, another project and another kind.
      beforeEach(async () => {
        await p.batch(
          (at) => view.write(at, records('items', { project: 1, spider: 2, job: 1 }, null, items(2, 0, { j: '1/2/1' }))),
          (at) => view.write(at, records('items', { project: 1, spider: 1, job: 10 }, null, items(3, 0, { j: '1/1/10' }))),
          (at) => view.write(at, records('items', { project: 1, spider: 1, job: 2 }, null, items(2, 0, { j: '1/1/2' }))),
          (at) => view.write(at, records('items', { project: 2, spider: 1, job: 1 }, null, items(2, 0, { j: '2/1/1' }))),
          (at) => view.write(at, records('logs', { project: 1, spider: 1, job: 2 }, null, [{ level: 20, message: 'log' }])),
          (at) => view.write(at, records('items', { project: 1, spider: 1, job: 2 }, 4, items(1, 4, { j: '1/1/2' }))),
          (at) => view.write(at, records('items', { project: 10, spider: 1, job: 1 }, null, items(1, 0, { j: '10/1/1' }))),
        );
      });
      const keys = (rs: StoredRecord[]) => rs.map((r) => `${r.spider}/${r.job}/${r.pos}`);

      it('a project in (spider, job, pos) order', async () => {
        const all = await view.scan({ kind: 'items', project: 1, limit: 100 });
        expect(keys(all)).toEqual(['1/2/0', '1/2/1', '1/2/4', '1/10/0', '1/10/1', '1/10/2', '2/1/0', '2/1/1']);
        expect(values(all).every((v) => v.j.startsWith('1/'))).toBe(true);
        expect(keys(await view.scan({ kind: 'items', project: 2, limit: 100 }))).toEqual(['1/1/0', '1/1/1']);
        expect(keys(await view.scan({ kind: 'logs', project: 1, limit: 100 }))).toEqual(['1/2/0']);
        expect(await view.scan({ kind: 'requests', project: 1, limit: 100 })).toEqual([]);
        expect(await view.scan({ kind: 'items', project: 3, limit: 100 })).toEqual([]);
      });

      it('a spider and a job', async () => {
        expect(keys(await view.scan({ kind: 'items', project: 1, spider: 1, limit: 100 }))).toEqual(['1/2/0', '1/2/1', '1/2/4', '1/10/0', '1/10/1', '1/10/2']);
        expect(keys(await view.scan({ kind: 'items', project: 1, spider: 2, limit: 100 }))).toEqual(['2/1/0', '2/1/1']);
        expect(keys(await view.scan({ kind: 'items', project: 1, spider: 3, limit: 100 }))).toEqual([]);
        expect(keys(await view.scan({ kind: 'items', project: 1, spider: 1, job: 10, limit: 100 }))).toEqual(['1/10/0', '1/10/1', '1/10/2']);
        expect(keys(await view.scan({ kind: 'items', project: 1, spider: 1, job: 3, limit: 100 }))).toEqual([]);
      });

      it('pages with from and limit, across jobs and spiders', async () => {
        const page = (from: { spider: number; job: number; pos: number } | undefined, limit: number, spider?: number) =>
          view.scan({ kind: 'items', project: 1, spider, from, limit }).then(keys);
        expect(await page(undefined, 3)).toEqual(['1/2/0', '1/2/1', '1/2/4']);
        expect(await page({ spider: 1, job: 2, pos: 2 }, 3)).toEqual(['1/2/4', '1/10/0', '1/10/1']);
        expect(await page({ spider: 1, job: 10, pos: 2 }, 3)).toEqual(['1/10/2', '2/1/0', '2/1/1']);
        expect(await page({ spider: 1, job: 10, pos: 3 }, 100)).toEqual(['2/1/0', '2/1/1']);
        expect(await page({ spider: 1, job: 11, pos: 0 }, 100)).toEqual(['2/1/0', '2/1/1']);
        expect(await page({ spider: 0, job: 99, pos: 99 }, 1)).toEqual(['1/2/0']);
        expect(await page({ spider: 3, job: 0, pos: 0 }, 100)).toEqual([]);
        // from before or after the spider being scanned
        expect(await page({ spider: 0, job: 0, pos: 0 }, 100, 2)).toEqual(['2/1/0', '2/1/1']);
        expect(await page({ spider: 1, job: 10, pos: 1 }, 100, 2)).toEqual(['2/1/0', '2/1/1']);
        expect(await page({ spider: 2, job: 1, pos: 1 }, 100, 1)).toEqual([]);
        // Bounds far beyond any id
        expect(await page({ spider: 1, job: 10, pos: 999_999_999_999_999 }, 100)).toEqual(['2/1/0', '2/1/1']);
        // Walking a project page by page visits everything once.
        const seen: string[] = [];
        let from: { spider: number; job: number; pos: number } | undefined;
        for (;;) {
          const got = await view.scan({ kind: 'items', project: 1, from, limit: 3 });
          seen.push(...keys(got));
          if (got.length < 3) break;
          const last = got[got.length - 1];
          from = { spider: last.spider, job: last.job, pos: last.pos + 1 };
        }
        expect(seen).toEqual(['1/2/0', '1/2/1', '1/2/4', '1/10/0', '1/10/1', '1/10/2', '2/1/0', '2/1/1']);
      });

      it('picks positions of a job, in order, with from and limit', async () => {
        const at = (positions: number[], limit = 100, from?: { spider: number; job: number; pos: number }) =>
          view.scan({ kind: 'items', project: 1, spider: 1, job: 2, positions, limit, from }).then(keys);
        expect(await at([4, 0])).toEqual(['1/2/0', '1/2/4']);
        expect(await at([2, 3, 99])).toEqual([]);
        expect(await at([1, 1])).toEqual(['1/2/1']);
        expect(await at([])).toEqual([]);
        expect(await at([0, 1, 4], 2)).toEqual(['1/2/0', '1/2/1']);
        expect(await at([0, 1, 4], 100, { spider: 1, job: 2, pos: 1 })).toEqual(['1/2/1', '1/2/4']);
        const one = await view.scan({ kind: 'items', project: 1, spider: 1, job: 10, positions: [1], limit: 1 });
        expect(one).toEqual([{ spider: 1, job: 10, pos: 1, ts: 1_000, json: '{"n":1,"j":"1/1/10"}' }]);
      });
    });

    it('reads a job as pages of stored bytes: each within the page bound (its first record always), together every record in order', async () => {
      // Three records of about 3 MB in UTF-8 (two bytes per 'é'), then small ones; an overwrite in the middle.
      const big = (i: number) => ({ i, s: 'é'.repeat(1_500_000) });
      await write(records('items', J1, null, [big(0), big(1), big(2), ...items(3000, 3)]));
      await write(records('items', J1, 1000, items(10, 1000, { overwritten: true })));
      const expected = (await view.scan({ kind: 'items', project: 1, spider: 1, job: 1, limit: 10_000 })).map((r) => r.json);
      const read: string[] = [];
      for (let fromPos = 0; ; ) {
        const page = await view.scanJsonLines({ kind: 'items', job: J1, fromPos, limit: 5000 });
        if (page === null) break;
        const lines = page.bytes.toString('utf8').split('\n');
        expect(lines.pop()).toBe('');
        expect(lines).toHaveLength(page.count);
        if (page.count > 1) expect(page.bytes.length).toBeLessThanOrEqual(JSON_LINES_PAGE_BYTES);
        read.push(...lines);
        fromPos = page.lastPos + 1;
      }
      expect(read).toEqual(expected);
      expect(read).toHaveLength(3003);
      expect(await view.scanJsonLines({ kind: 'items', job: { project: 1, spider: 1, job: 2 }, fromPos: 0, limit: 5000 })).toBeNull();
    });

    describe('staged uploads', () => {
      it('are invisible until committed, then appear at once, in chunk order', async () => {
        await write(records('items', J1, null, items(2, 0, { before: 1 })));
        await p.batch(
          (at) => view.stageChunk(at, chunk('up-1', 0, 'items', J1, items(3, 100))),
          (at) => view.stageChunk(at, chunk('up-1', 1, 'items', J1, items(2, 103, { tail: true }))),
        );
        expect(positions(await jobScan())).toEqual([0, 1]);
        expect((await view.stats('items', J1))!.inputValues).toBe(2);
        await p.batch((at) => view.commitUpload(at, { upload: 'up-1', kind: 'items', job: J1, start: null, ts: 777 }));
        const got = await jobScan();
        expect(positions(got)).toEqual([0, 1, 2, 3, 4, 5, 6]);
        expect(values(got).slice(2).map((v) => v.n)).toEqual([100, 101, 102, 103, 104]);
        expect(got.slice(2).every((r) => r.ts === 777)).toBe(true);
        expect(await view.stats('items', J1)).toEqual({
          inputValues: 7,
          inputBytes: sizeOf('items', [...items(2, 0, { before: 1 }), ...items(3, 100), ...items(2, 103, { tail: true })]),
          counts: { n: 7, before: 2, tail: 2 },
        });
        // Committing again finds nothing staged.
        await p.batch((at) => view.commitUpload(at, { upload: 'up-1', kind: 'items', job: J1, start: null, ts: 888 }));
        expect(positions(await jobScan())).toEqual([0, 1, 2, 3, 4, 5, 6]);
        expect((await view.stats('items', J1))!.inputValues).toBe(7);
      });

      it('a first upload creates the stats; commit at a start overwrites', async () => {
        await p.batch(
          (at) => view.stageChunk(at, chunk('u', 0, 'items', J1, items(2))),
          (at) => view.stageChunk(at, chunk('u', 1, 'items', J1, items(2, 2))),
        );
        expect(await view.stats('items', J1)).toBeNull();
        await p.batch((at) => view.commitUpload(at, { upload: 'u', kind: 'items', job: J1, start: null, ts: 1 }));
        expect((await view.stats('items', J1))!.inputValues).toBe(4);
        await p.batch(
          (at) => view.stageChunk(at, chunk('v', 0, 'items', J1, [{ x: 1 }])),
          (at) => view.stageChunk(at, chunk('v', 1, 'items', J1, [{ x: 2 }, { x: 3 }, { x: 4 }])),
          (at) => view.commitUpload(at, { upload: 'v', kind: 'items', job: J1, start: 2, ts: 2 }),
        );
        expect(values(await jobScan())).toEqual([{ n: 0 }, { n: 1 }, { x: 1 }, { x: 2 }, { x: 3 }, { x: 4 }]);
        expect(await view.stats('items', J1)).toEqual({ inputValues: 6, inputBytes: sizeOf('items', [{ n: 0 }, { n: 1 }, { x: 1 }, { x: 2 }, { x: 3 }, { x: 4 }]), counts: { n: 2, x: 4 } });
      });

      it('uploads to one job interleave: each lands where its commit puts it', async () => {
        await p.batch(
          (at) => view.stageChunk(at, chunk('a', 0, 'items', J1, [{ a: 0 }])),
          (at) => view.stageChunk(at, chunk('b', 0, 'items', J1, [{ b: 0 }])),
          (at) => view.stageChunk(at, chunk('a', 1, 'items', J1, [{ a: 1 }])),
          (at) => view.stageChunk(at, chunk('b', 1, 'items', J1, [{ b: 1 }])),
          (at) => view.commitUpload(at, { upload: 'b', kind: 'items', job: J1, start: null, ts: 1 }),
        );
        await write(records('items', J1, null, [{ w: 0 }]));
        await p.batch((at) => view.commitUpload(at, { upload: 'a', kind: 'items', job: J1, start: null, ts: 2 }));
        expect(values(await jobScan())).toEqual([{ b: 0 }, { b: 1 }, { w: 0 }, { a: 0 }, { a: 1 }]);
      });

      it('are gone after abort', async () => {
        await write(records('items', J1, null, items(1)));
        await p.batch(
          (at) => view.stageChunk(at, chunk('gone', 0, 'items', J1, items(3, 10))),
          (at) => view.stageChunk(at, chunk('gone', 1, 'items', J1, items(3, 13))),
        );
        await p.batch((at) => view.abortUpload(at, 'gone'));
        expect(positions(await jobScan())).toEqual([0]);
        // A commit arriving after the abort finds nothing to commit.
        await p.batch((at) => view.commitUpload(at, { upload: 'gone', kind: 'items', job: J1, start: null, ts: 1 }));
        expect(positions(await jobScan())).toEqual([0]);
        expect(await view.stats('items', J1)).toEqual({ inputValues: 1, inputBytes: sizeOf('items', items(1)), counts: { n: 1 } });
        // Aborting an unknown upload is harmless.
        await p.batch((at) => view.abortUpload(at, 'never-staged'));
      });
    });

    describe('applying an event again changes nothing', () => {
      const snapshot = async () => ({
        items: await jobScan('items'),
        logs: await jobScan('logs'),
        other: await jobScan('items', { project: 1, spider: 1, job: 2 }),
        stats: await view.stats('items', J1),
        logStats: await view.stats('logs', J1),
      });

      it('appends, overwrites, uploads and aborts, replayed in order', async () => {
        const J2 = { project: 1, spider: 1, job: 2 };
        const applied = await p.batch(
          (at) => view.write(at, records('items', J1, null, items(3, 0, { first: 1 }))),
          (at) => view.write(at, records('items', J2, null, items(2))),
          (at) => view.write(at, records('logs', J1, null, [{ level: 20, message: 'm' }])),
          (at) => view.write(at, records('items', J1, null, items(2, 3))),
          (at) => view.write(at, records('items', J1, 1, [{ over: 1 }, { over: 2 }])),
          (at) => view.stageChunk(at, chunk('up', 0, 'items', J1, items(2, 50))),
          (at) => view.stageChunk(at, chunk('dropped', 0, 'items', J1, items(2, 70))),
          (at) => view.stageChunk(at, chunk('up', 1, 'items', J1, [{ last: true }])),
          (at) => view.commitUpload(at, { upload: 'up', kind: 'items', job: J1, start: null, ts: 9 }),
          (at) => view.abortUpload(at, 'dropped'),
          (at) => view.write(at, records('items', J1, 0, [{ zero: 0 }])),
        );
        const before = await snapshot();
        expect(positions(before.items)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
        expect(before.stats!.inputValues).toBe(8);

        await p.replay(applied);
        expect(await snapshot()).toEqual(before);
        // Each event alone, too (the last batch before a crash can end anywhere).
        for (let i = 0; i < applied.length; i++) {
          await p.replay(applied.slice(i));
          expect(await snapshot()).toEqual(before);
        }
        // And nothing staged was brought back to life.
        await p.batch((at) => view.commitUpload(at, { upload: 'dropped', kind: 'items', job: J1, start: null, ts: 1 }));
        await p.batch((at) => view.commitUpload(at, { upload: 'up', kind: 'items', job: J1, start: null, ts: 1 }));
        expect(await snapshot()).toEqual(before);
      });

      it('the same write twice at the same position', async () => {
        const [w] = await write(records('items', J1, null, items(3)));
        const before = await snapshot();
        await p.replay([w]);
        expect(await snapshot()).toEqual(before);
        await write(records('items', J1, null, items(1, 3)));
        expect(positions(await jobScan())).toEqual([0, 1, 2, 3]);
      });
    });
  });
}
