import { binOf, toPairs, valueOf } from './histogram';
import { Rollup, UsageBucketRow, UsageGroup } from './usage-rollup';

const T0 = Date.parse('2018-12-17T15:30:00Z');
const row = (user: string, start: number, o: Partial<UsageBucketRow> = {}): UsageBucketRow => ({
  user, start, clean: 1, failed: 0, ban: 0, traffic: 10, times: [[binOf(100), 1]], concurrency: [[1, 1]], ...o,
});

describe('usage rollups', () => {
  it('merges buckets of several users into one entry, bans counted as failed, p80 of the merged summaries', () => {
    const g = new UsageGroup(T0);
    // a: 1 request in flight in seconds 0-9 and 9 in second 10; b: 1 in seconds 0-3 (together: 2 then).
    const seconds = (from: number, to: number, n: number): [number, number][] => Array.from({ length: to - from }, (_, i) => [from + i, n]);
    g.add(row('a', T0, { clean: 175, failed: 10, ban: 6, traffic: 3_000_000, times: [[binOf(2000), 4], [binOf(50), 16]], concurrency: [...seconds(0, 10, 1), [10, 9]] }));
    g.add(row('b', T0, { clean: 0, failed: 0, ban: 0, traffic: 554_065, times: [[binOf(2000), 5]], concurrency: seconds(0, 4, 1) }));
    // 11 seconds: [2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 9]; the 80th percentile is the 9th smallest: 2.
    expect(g.entry()).toEqual({ time_gte: '2018-12-17T15:30:00+00:00', clean: 175, failed: 16, concurrency: 2, total_time: valueOf(binOf(2000)), traffic: 3_554_065 });
    expect(Object.keys(g.entry())).toEqual(['time_gte', 'clean', 'failed', 'concurrency', 'total_time', 'traffic']);
  });

  it('adds the concurrency of users in the same second, not across buckets', () => {
    const g = new UsageGroup(T0);
    g.add(row('a', T0, { concurrency: [[0, 3]] }));
    g.add(row('b', T0, { concurrency: [[0, 4], [1, 1]] }));
    g.add(row('a', T0 + 300_000, { concurrency: [[0, 5]] }));
    // Samples: 7 (second 0 of the first bucket), 1, 5 (second 0 of the second bucket).
    expect(g.entry().concurrency).toBe(7);
    expect(toPairs(g.concurrency)).toEqual([[1, 1], [5, 1], [7, 1]]);
  });

  it('groups by hour and stops after `limit` groups, telling that more follow', () => {
    const r = new Rollup('hour', 0, 2);
    const rows = [row('a', T0), row('b', T0), row('a', T0 + 300_000), row('a', T0 + 1_800_000), row('a', T0 + 3_600_000), row('a', T0 + 7_200_000)];
    const taken = rows.filter((x) => !r.done && r.add(x));
    expect(taken).toHaveLength(5);
    expect(r.more).toBe(true);
    expect(r.groups.map((g) => g.entry().time_gte)).toEqual(['2018-12-17T15:00:00+00:00', '2018-12-17T16:00:00+00:00']);
    expect(r.groups.map((g) => g.clean)).toEqual([3, 2]);
  });

  it('without grouping gives one total starting at the range start', () => {
    const r = new Rollup(null, T0 - 600_000, 500);
    for (const x of [row('a', T0), row('a', T0 + 86_400_000 * 3)]) r.add(x);
    expect(r.more).toBe(false);
    expect(r.groups.map((g) => g.entry())).toEqual([
      { time_gte: '2018-12-17T15:20:00+00:00', clean: 2, failed: 0, concurrency: 1, total_time: valueOf(binOf(100)), traffic: 20 },
    ]);
  });

  it('gives nothing for no rows', () => {
    const r = new Rollup('max', 0, 10);
    expect(r.groups).toEqual([]);
    expect(r.more).toBe(false);
  });
});
