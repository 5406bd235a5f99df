import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEvent, encodeEvent } from '@crawlhub/contracts';
import { ConsumeOptions, SqliteEventLog } from '@crawlhub/eventlog';
import { systemStamps } from '../support/stamps';

jest.setTimeout(60_000);

const TOPICS = Array.from({ length: 10 }, (_, i) => `topic-${i}`);
const PARTITIONS = 8;
const MODES: [string, Partial<ConsumeOptions>][] = [
  ['in turn', {}],
  ['partitions concurrently', { partitionsConcurrently: 4 }],
  ['pipelined', { pipeline: { maxEventsInFlight: 100 } }],
];

const event = (key: string) => createEvent({ type: 't', key, data: {}, actor: { kind: 'system', id: 'test' } }, systemStamps);

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * A consumer of the embedded log woken by an append read every partition of every topic it
 * follows (each an empty query when nothing was new): in the storage ingest bench the
 * projector's thread spent more CPU on those reads than on folding the events. It now reads
 * the partitions this process appended to, and all of them once per poll interval, or less
 * often while no other process appends (it cannot notify this one).
 */
describe.each(MODES)('a SqliteEventLog consumer (%s)', (_mode, consumeOptions) => {
  /** A log of TOPICS, one consumer of them all that records the keys it is handed, and a spy on the log's reads. */
  async function withConsumer(pollIntervalMs: number, test: (c: { log: SqliteEventLog; file: string; seen: string[]; reads: jest.SpyInstance }) => Promise<void>): Promise<void> {
    const file = join(mkdtempSync(join(tmpdir(), 'crawlhub-log-')), 'eventlog.db');
    const log = new SqliteEventLog({ file, partitions: PARTITIONS, sessionTimeoutMs: 60_000, pollIntervalMs });
    await log.ensureTopics(TOPICS);
    const reads = jest.spyOn(log, 'readSync');
    const seen: string[] = [];
    const consumption = await log.consume({ ...consumeOptions, groupId: 'g', topics: TOPICS, handler: async (b) => void seen.push(...b.events.map((e) => e.event.key)) });
    try {
      await test({ log, file, seen, reads });
    } finally {
      reads.mockRestore();
      await consumption.stop();
      await log.close();
    }
  }

  // A poll interval longer than the test: only notifications wake the consumer.
  it('reads only the partitions appended to, and delivers every event once, in order', () =>
    withConsumer(60_000, async ({ log, seen, reads }) => {
      // The first pass reads every partition once.
      await until(() => reads.mock.calls.length >= TOPICS.length * PARTITIONS, 'the first pass');
      reads.mockClear();
      const keys = Array.from({ length: 50 }, (_, i) => `k${i % 3}`);
      for (const [i, key] of keys.entries()) await log.append('topic-3', [{ ...event(key), data: { i } }]);
      await until(() => seen.length === keys.length, 'every event');
      expect(seen).toEqual(keys);
      // The keys' partitions of topic-3, read about twice per append (its events, then
      // nothing new); before, every append woke a read of all 80 partitions.
      const partitionsRead = new Set(reads.mock.calls.map(([topic, partition]) => `${topic}/${partition}`));
      expect([...partitionsRead].every((p) => p.startsWith('topic-3/'))).toBe(true);
      expect(partitionsRead.size).toBeLessThanOrEqual(3);
      expect(reads.mock.calls.length).toBeLessThanOrEqual(keys.length * 3);
    }));

  it('reads every partition less and less often while nothing unnotified turns up, down to once a second', () =>
    withConsumer(50, async ({ reads }) => {
      await new Promise((r) => setTimeout(r, 3_000));
      // Full passes at 0, 50, 150, 350, 750, 1550 and 2550 ms: 7 (every 50 ms it was 60).
      const passes = reads.mock.calls.length / (TOPICS.length * PARTITIONS);
      expect(passes).toBeGreaterThanOrEqual(5);
      expect(passes).toBeLessThanOrEqual(9);
    }));

  it('delivers within a second what another process appended to the file', () =>
    withConsumer(100, async ({ log, file, seen }) => {
      await log.append('topic-1', [event('here')]);
      await until(() => seen.length === 1, 'the event of this process');
      // Another process writes an event row as the log does (it cannot notify this one).
      const value = encodeEvent(event('elsewhere')).toString('base64');
      const script = `const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
        new Database(${JSON.stringify(file)}).prepare('INSERT INTO "log_topic_7" (partition, offset, key, value) VALUES (5, 0, ?, ?)').run('elsewhere', Buffer.from(${JSON.stringify(value)}, 'base64'));`;
      const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
      expect(child.stderr).toBe('');
      const appendedAt = Date.now();
      await until(() => seen.length === 2, 'the event of the other process');
      expect(seen).toEqual(['here', 'elsewhere']);
      expect(Date.now() - appendedAt).toBeLessThan(1_500);
    }));
});
