import { ConcurrencyTracker, UsageAggregator } from './usage-aggregator';
import { binOf } from './histogram';

const T0 = Date.parse('2018-12-17T15:30:00Z');

describe('UsageAggregator', () => {
  it('aggregates per user and 5-minute bucket, and drains', () => {
    const a = new UsageAggregator();
    a.request('u1', 'clean', 100, 20, T0 + 1000);
    a.request('u1', 'clean', 50, 40, T0 + 299_999);
    a.request('u1', 'failed', 10, 30_000, T0 + 2000);
    a.request('u1', 'ban', 0, 5, T0 + 300_000);
    a.request('u2', 'clean', -5, 7, T0);
    a.concurrency('u1', 3, T0 + 5000);
    a.concurrency('u1', 2, T0 + 5999); // the same second keeps its highest sample
    a.concurrency('u1', 0, T0 + 7000); // nothing in flight: no sample
    const out = a.drain();
    expect(a.empty).toBe(true);
    expect(out.get('u1')).toEqual([
      { start: T0, clean: 2, failed: 1, ban: 0, traffic: 160, times: [[20, 1], [binOf(40), 1], [binOf(30_000), 1]], concurrency: [[5, 3]] },
      { start: T0 + 300_000, clean: 0, failed: 0, ban: 1, traffic: 0, times: [[5, 1]], concurrency: [] },
    ]);
    expect(out.get('u2')).toEqual([{ start: T0, clean: 1, failed: 0, ban: 0, traffic: 0, times: [[7, 1]], concurrency: [] }]);
    expect(a.drain().size).toBe(0);
  });

  it('restores a drained flush, adding it to what came since (a second keeps its highest peak)', () => {
    const a = new UsageAggregator();
    a.request('u', 'clean', 10, 3, T0);
    a.concurrency('u', 4, T0 + 100);
    a.concurrency('u', 1, T0 + 1100);
    const first = a.drain();
    a.request('u', 'clean', 5, 3, T0 + 10);
    a.concurrency('u', 2, T0 + 900);
    a.concurrency('u', 3, T0 + 1900);
    a.restore(first);
    expect(a.drain().get('u')).toEqual([{ start: T0, clean: 2, failed: 0, ban: 0, traffic: 15, times: [[3, 2]], concurrency: [[0, 4], [1, 3]] }]);
  });
});

describe('ConcurrencyTracker', () => {
  it('samples the peak in flight since the last tick, and nothing for idle users', () => {
    const c = new ConcurrencyTracker();
    c.started('a');
    c.started('a');
    c.started('a');
    c.finished('a');
    c.finished('a');
    c.started('b');
    c.finished('b');
    expect(c.tick().sort()).toEqual([['a', 3], ['b', 1]]);
    // a still has one in flight: sampled at 1; b is idle: no sample.
    expect(c.tick()).toEqual([['a', 1]]);
    c.finished('a');
    c.finished('a'); // never below zero
    expect(c.current('a')).toBe(0);
    expect(c.tick()).toEqual([['a', 1]]);
    expect(c.tick()).toEqual([]);
  });
});
