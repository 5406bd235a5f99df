import { EventEnvelope, ManualClock, PROXY_USAGE_RECORDED, PROXY_USAGE_TOPIC, ProxyUsageRecorded, SequentialIds } from '@crawlhub/contracts';
import { loadConfig } from '@crawlhub/config';
import { LogPosition } from '@crawlhub/eventlog';
import { EventWriter } from '@crawlhub/views';
import { binOf } from '../domain/histogram';
import { UsageRecorder } from './usage-recorder';

const T0 = Date.parse('2018-12-17T15:34:58Z');

/** An EventWriter that keeps what it is given; `fail` makes the next appends throw. */
class FakeWriter {
  appended: { topic: string; events: EventEnvelope[] }[] = [];
  fail = false;
  async append(topic: string, events: EventEnvelope[]): Promise<LogPosition[]> {
    if (this.fail) throw new Error('log down');
    this.appended.push({ topic, events });
    return events.map((_, i) => ({ topic, partition: 0, offset: i }));
  }
}

function recorder(env: Record<string, string> = {}) {
  const writer = new FakeWriter();
  const clock = new ManualClock(T0);
  const r = new UsageRecorder(writer as unknown as EventWriter, loadConfig({ PROXY_STATS_FLUSH_MS: '10000', PROXY_STATS_SAMPLE_MS: '1000', ...env }), clock, new SequentialIds());
  r.onModuleInit();
  const events = () => writer.appended.flatMap((a) => a.events) as EventEnvelope<ProxyUsageRecorded>[];
  return { r, writer, clock, events };
}

describe('UsageRecorder', () => {
  it('appends nothing per request, and one event per user per flush, keyed by the user', async () => {
    const { r, writer, clock, events } = recorder();
    for (let i = 0; i < 100; i++) {
      r.started('a');
      r.finished({ user: 'a', outcome: 'clean', bytes: 10, timeMs: 5 });
    }
    r.started('b');
    r.finished({ user: 'b', outcome: 'ban', bytes: 0, timeMs: 50 });
    expect(writer.appended).toEqual([]);
    clock.advance(10_000);
    await r.flush(); // waits for the timer's flush too
    expect(writer.appended.map((a) => a.topic)).toEqual([PROXY_USAGE_TOPIC]);
    expect(events().map((e) => [e.type, e.key, e.data.user])).toEqual([[PROXY_USAGE_RECORDED, 'a', 'a'], [PROXY_USAGE_RECORDED, 'b', 'b']]);
    const a = events()[0].data.buckets;
    expect(a).toHaveLength(1);
    expect(a[0]).toMatchObject({ start: Date.parse('2018-12-17T15:30:00Z'), clean: 100, failed: 0, ban: 0, traffic: 1000, times: [[5, 100]] });
    // One tick fell in the bucket (15:34:59, its second 299): 'a' had had one request in flight.
    expect(a[0].concurrency).toEqual([[299, 1]]);
    expect(events()[1].data.buckets[0]).toMatchObject({ ban: 1, times: [[binOf(50), 1]] });
    // Nothing new: no event.
    await r.flush();
    expect(writer.appended).toHaveLength(1);
  });

  it('dates requests by when they end, and samples the peak in flight each tick', async () => {
    const { r, clock, events } = recorder();
    r.started('a');
    r.started('a');
    clock.advance(1000); // tick at 15:34:59: sample 2 (bucket 15:30)
    r.started('a');
    clock.advance(1500); // tick at 15:35:00: sample 3 (bucket 15:35); now 15:35:00.5
    r.finished({ user: 'a', outcome: 'clean', bytes: 1, timeMs: 2500 });
    r.finished({ user: 'a', outcome: 'failed', bytes: 1, timeMs: 2500 });
    r.finished({ user: 'a', outcome: 'clean', bytes: 1, timeMs: 1500 });
    await r.flush();
    const [b] = events().map((e) => e.data.buckets);
    expect(b.map((x) => new Date(x.start).toISOString())).toEqual(['2018-12-17T15:30:00.000Z', '2018-12-17T15:35:00.000Z']);
    expect(b[0]).toMatchObject({ clean: 0, failed: 0, concurrency: [[299, 2]] });
    expect(b[1]).toMatchObject({ clean: 2, failed: 1, traffic: 3, concurrency: [[0, 3]] });
  });

  it('keeps a failed flush for the next one', async () => {
    const { r, writer, events } = recorder();
    r.started('a');
    r.finished({ user: 'a', outcome: 'clean', bytes: 7, timeMs: 1 });
    writer.fail = true;
    await expect(r.flush()).rejects.toThrow('log down');
    r.started('a');
    r.finished({ user: 'a', outcome: 'clean', bytes: 3, timeMs: 1 });
    writer.fail = false;
    await r.flush();
    expect(events()).toHaveLength(1);
    expect(events()[0].data.buckets[0]).toMatchObject({ clean: 2, traffic: 10 });
  });

  it('flushes what it holds when the module closes, and stops its timers', async () => {
    const { r, writer, clock, events } = recorder();
    r.started('a');
    r.finished({ user: 'a', outcome: 'clean', bytes: 7, timeMs: 1 });
    await r.onModuleDestroy();
    expect(events()).toHaveLength(1);
    r.started('a');
    r.finished({ user: 'a', outcome: 'clean', bytes: 7, timeMs: 1 });
    clock.advance(60_000);
    await Promise.resolve();
    expect(writer.appended).toHaveLength(1);
  });
});
