import type { UsageBucketPartial } from '@crawlhub/contracts';
import { ProxyUsageView } from '@crawlhub/proxy-stats';
import { eachViewFixture, FakeProjector, ViewFixture, ViewHarness } from './view-fixture';

const T0 = Date.parse('2018-12-17T15:30:00Z');
const M5 = 300_000;

const part = (start: number, o: Partial<UsageBucketPartial> = {}): UsageBucketPartial => ({
  start, clean: 1, failed: 0, ban: 0, traffic: 100, times: [[10, 1]], concurrency: [[1, 1]], ...o,
});

export function proxyUsageViewContract(name: string, harness: ViewHarness<ProxyUsageView>): void {
  describe(`ProxyUsageView contract: ${name}`, () => {
    let f: ViewFixture<ProxyUsageView>;
    let view: ProxyUsageView;
    let p: FakeProjector;
    eachViewFixture(harness, (fixture, projector) => ((f = fixture), (view = fixture.view), (p = projector)));

    const all = (users: string[] | null = null, from = 0, to = T0 + 100 * M5) => view.scan({ users, from, to, limit: 1000 });

    it('has nothing at first', async () => {
      expect(await all()).toEqual([]);
    });

    it('adds partial aggregates of a bucket up: counts, bytes, and histograms bin by bin', async () => {
      await p.batch((at) => view.add(at, 'u1', [part(T0, { clean: 2, failed: 1, ban: 3, traffic: 1000, times: [[10, 2], [40, 1]], concurrency: [[2, 3]] })]));
      await p.batch(
        (at) => view.add(at, 'u1', [part(T0, { clean: 5, failed: 0, ban: 1, traffic: 24, times: [[40, 4], [90, 1]], concurrency: [[1, 1], [2, 1]] }), part(T0 + M5)]),
        (at) => view.add(at, 'u2', [part(T0)]),
      );
      expect(await all()).toEqual([
        { user: 'u1', start: T0, clean: 7, failed: 1, ban: 4, traffic: 1024, times: [[10, 2], [40, 5], [90, 1]], concurrency: [[1, 1], [2, 4]] },
        { user: 'u2', start: T0, clean: 1, failed: 0, ban: 0, traffic: 100, times: [[10, 1]], concurrency: [[1, 1]] },
        { user: 'u1', start: T0 + M5, clean: 1, failed: 0, ban: 0, traffic: 100, times: [[10, 1]], concurrency: [[1, 1]] },
      ]);
    });

    it('scans a time range [from, to) for some users, ascending by (start, user), in pages', async () => {
      const users = ['b', 'a', 'c', 'key-0123456789ab'];
      for (let i = 0; i < 6; i++) await p.batch(...users.map((u) => (at: Parameters<ProxyUsageView['add']>[0]) => view.add(at, u, [part(T0 + i * M5, { clean: i })])));
      const range = await view.scan({ users: null, from: T0 + M5, to: T0 + 4 * M5, limit: 1000 });
      expect(range.map((r) => [r.start, r.user])).toEqual(
        [1, 2, 3].flatMap((i) => ['a', 'b', 'c', 'key-0123456789ab'].map((u) => [T0 + i * M5, u])),
      );
      const some = await view.scan({ users: ['c', 'a', 'nobody'], from: 0, to: T0 + 2 * M5, limit: 1000 });
      expect(some.map((r) => [r.start - T0, r.user, r.clean])).toEqual([[0, 'a', 0], [0, 'c', 0], [M5, 'a', 1], [M5, 'c', 1]]);
      const page1 = await view.scan({ users: ['a', 'b'], from: T0, to: T0 + 6 * M5, limit: 5 });
      const page2 = await view.scan({ users: ['a', 'b'], from: T0, to: T0 + 6 * M5, limit: 5, after: page1[4] });
      const page3 = await view.scan({ users: ['a', 'b'], from: T0, to: T0 + 6 * M5, limit: 5, after: page2[4] });
      expect([...page1, ...page2, ...page3].map((r) => [r.start - T0, r.user])).toEqual([0, 1, 2, 3, 4, 5].flatMap((i) => [[i * M5, 'a'], [i * M5, 'b']]));
      expect(page3).toHaveLength(2);
      expect(await view.scan({ users: [], from: 0, to: T0 * 2, limit: 10 })).toEqual([]);
      expect(await view.scan({ users: null, from: T0, to: T0, limit: 10 })).toEqual([]);
      expect(await view.scan({ users: null, from: 0, to: T0 * 2, limit: 0 })).toEqual([]);
    });

    it('applying an event again changes nothing', async () => {
      const applied = await p.batch(
        (at) => view.add(at, 'u1', [part(T0, { clean: 3, times: [[5, 3]] }), part(T0 + M5, { failed: 2 })]),
        (at) => view.add(at, 'u2', [part(T0, { ban: 1, concurrency: [[7, 2]] })]),
        (at) => view.add(at, 'u1', [part(T0 + M5, { clean: 1, traffic: 7, times: [[5, 1], [33, 2]] })]),
        (at) => view.add(at, 'u1', [part(T0 + 2 * M5)]),
      );
      const before = await all();
      expect(before.find((r) => r.user === 'u1' && r.start === T0 + M5)).toEqual({
        user: 'u1', start: T0 + M5, clean: 2, failed: 2, ban: 0, traffic: 107, times: [[5, 1], [10, 1], [33, 2]], concurrency: [[1, 2]],
      });
      for (let i = 0; i < applied.length; i++) {
        await p.replay(applied.slice(i));
        expect(await all()).toEqual(before);
      }
      void f;
    });

    it('an event half-applied (a crash after some of its buckets) and applied again counts each bucket once', async () => {
      const [first] = await p.batch((at) => view.add(at, 'u', [part(T0, { clean: 1 })]));
      const whole = [part(T0, { clean: 10 }), part(T0 + M5, { clean: 20 }), part(T0 + 2 * M5, { clean: 30 })];
      // The next event wrote only its first bucket, then the projector died before its checkpoint:
      const [half] = await p.batch((pos) => view.add(pos, 'u', whole.slice(0, 1)));
      expect(half.event.offset).toBe(first.event.offset + 1);
      // after the restart the whole event is applied again (straight to the adapter: the checkpoint did not pass it).
      await view.add(half.event, 'u', whole);
      await view.add(half.event, 'u', whole);
      expect((await all(['u'])).map((r) => [r.start - T0, r.clean])).toEqual([[0, 11], [M5, 20], [2 * M5, 30]]);
    });
  });
}
