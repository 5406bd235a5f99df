import { RecordKind } from '@crawlhub/storage';
import { RecordSink, SinkTarget } from './record-sink';
import { systemClock } from '@crawlhub/contracts';

function target(failures = 0) {
  const writes: { kind: RecordKind; start: number; lines: string[] }[] = [];
  const stored = new Map<string, string>();
  const stats: Record<string, unknown>[] = [];
  const lost: string[] = [];
  let failing = failures;
  const t: SinkTarget = {
    writeRecords: async (kind, start, lines) => {
      lines.forEach((l, i) => stored.set(`${kind}/${start + i}`, l)); // positional: a retry overwrites
      writes.push({ kind, start, lines });
      if (failing-- > 0) throw new Error('storage down');
    },
    writeStats: async (s) => void stats.push(s),
    lost: (what) => void lost.push(what),
  };
  return { t, writes, stored, stats, lost };
}

const options = { batchRecords: 3, batchBytes: 1 << 20, maxRecordBytes: 200, retries: 3, retryDelayMs: 1, clock: systemClock };

describe('RecordSink', () => {
  it('numbers each kind from where the job data ends, in batches, and writes the latest stats after the records', async () => {
    const { t, writes, stats } = target();
    const sink = new RecordSink(t, { items: 10, logs: 0, requests: 0 } as Record<RecordKind, number>, options);
    for (let i = 0; i < 4; i++) sink.add('items', { i });
    sink.log(20, 'hello', 5);
    sink.setStats({ n: 1 });
    sink.setStats({ n: 2 });
    await sink.flush();
    expect(writes.map((w) => [w.kind, w.start, w.lines])).toEqual([
      ['items', 10, ['{"i":0}', '{"i":1}', '{"i":2}']],
      ['items', 13, ['{"i":3}']],
      ['logs', 0, ['{"time":5,"level":20,"message":"hello"}']],
    ]);
    expect(stats).toEqual([{ n: 2 }]);
    expect(sink.backlog).toBe(0);
    expect(sink.counts).toMatchObject({ items: 14, logs: 1 });
    await sink.flush();
    expect(stats).toHaveLength(1); // unchanged stats are not written again
  });

  it('retries a failed batch at the same positions: nothing is stored twice', async () => {
    const { t, writes, stored, lost } = target(2);
    const sink = new RecordSink(t, { items: 0, logs: 0, requests: 0 } as Record<RecordKind, number>, options);
    sink.add('items', { a: 1 });
    sink.add('items', { a: 2 });
    await sink.flush();
    expect(writes.map((w) => w.start)).toEqual([0, 0, 0]);
    expect([...stored.keys()]).toEqual(['items/0', 'items/1']);
    expect(lost).toEqual([]);
  });

  it('gives a batch up after its retries and says so', async () => {
    const { t, lost } = target(100);
    const sink = new RecordSink(t, { items: 0, logs: 0, requests: 0 } as Record<RecordKind, number>, options);
    sink.add('items', { a: 1 });
    await sink.flush();
    expect(lost).toEqual(['1 items at position 0']);
    expect(sink.backlog).toBe(0);
  });

  it('turns a record storage would refuse into an error log line, and cuts an overlong log message', async () => {
    const { t, stored } = target();
    const sink = new RecordSink(t, { items: 0, logs: 0, requests: 0 } as Record<RecordKind, number>, options);
    sink.add('logs', { message: 'no level' });
    sink.add('requests', { url: 'http://127.0.0.1/' });
    sink.add('items', { big: 'x'.repeat(500) });
    sink.add('items', { ok: true });
    sink.log(40, 'y'.repeat(1000), 1);
    await sink.flush();
    expect(stored.get('items/0')).toBe('{"ok":true}');
    const logs = [0, 1, 2, 3].map((i) => JSON.parse(stored.get(`logs/${i}`)!));
    expect(logs[0].message).toBe('[crawlhub runner] dropped an invalid log record: log record needs an integer "level"');
    expect(logs[1].message).toMatch(/^\[crawlhub runner\] dropped an invalid request record: request record needs "time"/);
    expect(logs[2].message).toMatch(/^\[crawlhub runner\] dropped an item record of \d+ bytes/);
    expect(logs[3].message.endsWith('[... cut by crawlhub]')).toBe(true);
    expect(logs.every((l) => typeof l.level === 'number')).toBe(true);
  });
});
