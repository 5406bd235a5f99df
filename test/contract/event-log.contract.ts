import { randomUUID } from 'node:crypto';
import { createEvent, EventEnvelope } from '@crawlhub/contracts';
import { ConsumedBatch, ConsumeOptions, EventLog, LoggedEvent, partitionForKey, poisonMessagesSettled } from '@crawlhub/eventlog';
import { systemStamps } from '../support/stamps';

/**
 * The behaviour every EventLog adapter must have. `open` returns a new instance on the
 * same underlying storage each time it is called (a "process" restart), so the suite
 * can test durability and several members of one group.
 */
export interface EventLogHarness {
  open(): Promise<EventLog>;
  /** Upper bound for one group (re)balance in this adapter, in ms. */
  settleMs: number;
}

const actor = { kind: 'system' as const, id: 'contract' };

function ev(key: string, n: number): EventEnvelope<{ n: number }> {
  return createEvent({ type: 'test.counted', key, data: { n }, actor }, systemStamps);
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function eventLogContract(name: string, harness: () => EventLogHarness): void {
  describe(`EventLog contract: ${name}`, () => {
    let h: EventLogHarness;
    const opened: EventLog[] = [];
    const open = async () => {
      const log = await h.open();
      opened.push(log);
      return log;
    };
    const topicName = () => `contract-${randomUUID().slice(0, 8)}`;

    beforeAll(() => {
      h = harness();
    });
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((l) => l.close().catch(() => undefined)));
    });

    it('keeps the order of events per key and places keys like Kafka', async () => {
      const log = await open();
      const topic = topicName();
      await log.ensureTopics([topic]);
      const keys = Array.from({ length: 12 }, (_, i) => `1/${i}/${i * 7}`);
      for (let round = 0; round < 10; round++) {
        await log.append(topic, keys.map((k) => ev(k, round)));
      }
      const seen = new Map<string, number[]>();
      const consumer = await log.consume({
        groupId: `g-${randomUUID()}`,
        topics: [topic],
        handler: async (batch: ConsumedBatch) => {
          for (const e of batch.events) {
            expect(e.partition).toBe(partitionForKey(e.event.key, log.partitionCount(topic)));
            seen.set(e.event.key, [...(seen.get(e.event.key) ?? []), (e.event.data as { n: number }).n]);
          }
        },
      });
      await until(() => [...seen.values()].reduce((a, v) => a + v.length, 0) >= 120, h.settleMs + 20_000, 'all events');
      await consumer.stop();
      for (const k of keys) expect(seen.get(k)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('with partitionsConcurrently, a slow batch of one partition does not hold up the others, and is committed when done', async () => {
      const log = await open();
      const topic = topicName();
      await log.ensureTopics([topic]);
      const n = log.partitionCount(topic);
      expect(n).toBeGreaterThanOrEqual(2);
      // One key per partition; the first partition's handler waits until every other partition was delivered.
      const keys: string[] = [];
      for (let i = 0; keys.length < n; i++) if (partitionForKey(`k${i}`, n) === keys.length) keys.push(`k${i}`);
      await log.append(topic, keys.map((k, i) => ev(k, i)));
      const groupId = `g-${randomUUID()}`;
      const seen = new Set<number>();
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      const consumer = await log.consume({
        groupId,
        topics: [topic],
        partitionsConcurrently: n,
        handler: async (b) => {
          if (b.partition === 0) await released;
          b.events.forEach((e) => seen.add(e.partition));
        },
      });
      await until(() => seen.size === n - 1, h.settleMs + 20_000, 'the other partitions while the first is held');
      expect(seen.has(0)).toBe(false);
      release();
      await until(() => seen.size === n, 10_000, 'the held partition');
      await consumer.stop();
      // Every batch was committed: the group gets nothing again.
      const again: number[] = [];
      const next = await (await open()).consume({ groupId, topics: [topic], handler: async (b) => void again.push(...b.events.map((e) => e.offset)) });
      await new Promise((r) => setTimeout(r, h.settleMs + 500));
      await next.stop();
      expect(again).toEqual([]);
    });

    it('pipelined (work queues): a held event holds up no later one, of its partition or another; its partition is committed only up to it', async () => {
      const topic = topicName();
      const groupId = `g-${randomUUID()}`;
      const crashing = await open();
      await crashing.ensureTopics([topic]);
      const n = crashing.partitionCount(topic);
      const keys: string[] = [];
      for (let i = 0; keys.length < n; i++) if (partitionForKey(`p${i}`, n) === keys.length) keys.push(`p${i}`);
      const held = ev(keys[0], 0);
      await crashing.append(topic, [held]);
      let heldDelivered = false;
      const handled = new Set<string>();
      await crashing.consume({
        groupId,
        topics: [topic],
        partitionsConcurrently: n,
        pipeline: { maxEventsInFlight: 100 },
        handler: async (b) => {
          for (const e of b.events) {
            if (e.event.id === held.id) {
              heldDelivered = true;
              await new Promise<void>(() => undefined); // a page that never answers
            }
            handled.add(e.event.id);
          }
        },
      });
      await until(() => heldDelivered, h.settleMs + 20_000, 'the held event');
      // Appended after the held event was taken: later batches, of its partition and the others.
      const later = [...keys.map((k) => ev(k, 1)), ev(keys[0], 2)];
      await crashing.append(topic, later);
      await until(() => later.every((e) => handled.has(e.id)), 20_000, 'the events behind the held one');
      await crashing.close(); // dies with the held event unfinished

      const survivor = await open();
      await survivor.ensureTopics([topic]);
      const again: { partition: number; n: number }[] = [];
      const c = await survivor.consume({ groupId, topics: [topic], handler: async (b) => void again.push(...b.events.map((e) => ({ partition: e.partition, n: (e.event.data as { n: number }).n }))) });
      await until(() => again.length >= 3, h.settleMs + 30_000, 'redelivery of the held partition');
      await new Promise((r) => setTimeout(r, 500));
      await c.stop();
      // The held event and what follows it in its partition come again; the other partitions were committed.
      expect(again).toEqual([0, 1, 2].map((x) => ({ partition: 0, n: x })));
    });

    it('pipelined: a batch whose handler fails is delivered again, with the batches behind it', async () => {
      const log = await open();
      const topic = topicName();
      await log.ensureTopics([topic]);
      const applied = new Set<number>();
      let failures = 0;
      const consumer = await log.consume({
        groupId: `g-${randomUUID()}`,
        topics: [topic],
        pipeline: { maxEventsInFlight: 100 },
        handler: async (batch) => {
          for (const e of batch.events) {
            const n = (e.event.data as { n: number }).n;
            if (n === 5 && failures < 2) {
              failures++;
              throw new Error('handler crashed');
            }
            applied.add(n);
          }
        },
      });
      for (let i = 0; i < 10; i++) await log.append(topic, [ev('same-key', i)]);
      await until(() => applied.size >= 10, h.settleMs + 20_000, 'redelivery');
      await consumer.stop();
      expect(failures).toBe(2);
      expect([...applied].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('returns the offsets it assigned, and replays a partition from offset 0', async () => {
      const log = await open();
      const topic = topicName();
      await log.ensureTopics([topic]);
      const events = Array.from({ length: 50 }, (_, i) => ev(`k${i % 5}`, i));
      const positions = [...(await log.append(topic, events.slice(0, 20))), ...(await log.append(topic, events.slice(20)))];
      expect(positions).toHaveLength(50);
      const byPartition = new Map<number, number[]>();
      positions.forEach((p) => byPartition.set(p.partition, [...(byPartition.get(p.partition) ?? []), p.offset]));
      for (const offsets of byPartition.values()) expect(offsets).toEqual(offsets.map((_, i) => i));
      const ends = await log.endOffsets(topic);
      let replayed: LoggedEvent[] = [];
      for (let p = 0; p < log.partitionCount(topic); p++) {
        expect(ends[p]).toBe(byPartition.get(p)?.length ?? 0);
        replayed = replayed.concat(await log.read(topic, p, 0, 1000));
      }
      expect(replayed.map((e) => e.event.id).sort()).toEqual(events.map((e) => e.id).sort());
      const first = positions[0];
      const fromSecond = await log.read(topic, first.partition, 1, 1000);
      expect(fromSecond[0]?.offset).toBe(1);
    });

    it('appends issued together (across topics) keep their call order per key, and each gets the offsets of its own events', async () => {
      const log = await open();
      const [a, b] = [topicName(), topicName()];
      await log.ensureTopics([a, b]);
      // 200 appends without waiting: the adapter may send them together, never out of order.
      const calls = Array.from({ length: 200 }, (_, i) => ({ topic: i % 3 === 0 ? b : a, events: [ev(`k${i % 7}`, i), ev(`k${(i + 1) % 7}`, i)] }));
      const answers = await Promise.all(calls.map((c) => log.append(c.topic, c.events)));
      for (const topic of [a, b]) {
        for (let p = 0; p < log.partitionCount(topic); p++) {
          const stored = await log.read(topic, p, 0, 10_000);
          const byId = new Map(stored.map((e) => [e.event.id, e]));
          calls.forEach((c, i) => {
            if (c.topic !== topic) return;
            c.events.forEach((e, j) => {
              const at = answers[i][j];
              if (at.partition !== p) return;
              // The position an append answered holds that very event.
              expect(byId.get(e.id)).toMatchObject({ topic, partition: p, offset: at.offset });
            });
          });
          // Per key, the stored order is the order of the calls.
          const perKey = new Map<string, number[]>();
          for (const e of stored) perKey.set(e.event.key, [...(perKey.get(e.event.key) ?? []), (e.event.data as { n: number }).n]);
          for (const ns of perKey.values()) expect(ns).toEqual([...ns].sort((x, y) => x - y));
        }
      }
      expect(answers.flat()).toHaveLength(400);
    });

    it('an event that cannot be encoded fails its own append only, never the appends sent with it', async () => {
      const log = await open();
      const topic = topicName();
      await log.ensureTopics([topic]);
      // JSON.stringify runs out of stack on a value nested this deep, and refuses a BigInt.
      let deep: unknown = 0;
      for (let i = 0; i < 1_000_000; i++) deep = [deep];
      const unencodable = [
        createEvent({ type: 'test.deep', key: 'k1', data: { deep }, actor }, systemStamps),
        createEvent({ type: 'test.bigint', key: 'k2', data: { n: BigInt(1) }, actor }, systemStamps),
      ];
      // Neighbours issued in the same tick, before and after each bad append, on the same keys and others.
      const calls: EventEnvelope[][] = [];
      for (let i = 0; i < 10; i++) calls.push([ev(`k${i % 4}`, i)]);
      calls.push([ev('k1', 10), unencodable[0]]);
      for (let i = 11; i < 20; i++) calls.push([ev(`k${i % 4}`, i)]);
      calls.push([unencodable[1]]);
      for (let i = 21; i < 30; i++) calls.push([ev(`k${i % 4}`, i)]);
      const answers = await Promise.allSettled(calls.map((events) => log.append(topic, events)));

      const refused = answers.flatMap((a, i) => (a.status === 'rejected' ? [i] : []));
      expect(refused).toEqual([10, 20]);
      const stored: LoggedEvent[] = [];
      for (let p = 0; p < log.partitionCount(topic); p++) stored.push(...(await log.read(topic, p, 0, 1000)));
      const storedNumbers = stored.map((e) => (e.event.data as { n: number }).n).sort((x, y) => x - y);
      // Every neighbour is stored; nothing of a refused append is (not even its encodable event 10).
      expect(storedNumbers).toEqual(Array.from({ length: 30 }, (_, i) => i).filter((i) => i !== 10 && i !== 20));
    });

    it('keeps appended events and committed offsets across a restart', async () => {
      const topic = topicName();
      const groupId = `g-${randomUUID()}`;
      const first = await open();
      await first.ensureTopics([topic]);
      const before = Array.from({ length: 30 }, (_, i) => ev(`key-${i % 3}`, i));
      await first.append(topic, before);
      const seenFirst: string[] = [];
      const c1 = await first.consume({ groupId, topics: [topic], handler: async (b) => void seenFirst.push(...b.events.map((e) => e.event.id)) });
      await until(() => seenFirst.length >= 30, h.settleMs + 20_000, 'first consumption');
      await c1.stop();
      await first.close();

      const second = await open();
      await second.ensureTopics([topic]);
      const after = Array.from({ length: 10 }, (_, i) => ev(`key-${i % 3}`, 100 + i));
      await second.append(topic, after);
      let all: LoggedEvent[] = [];
      for (let p = 0; p < second.partitionCount(topic); p++) all = all.concat(await second.read(topic, p, 0, 1000));
      expect(all).toHaveLength(40);
      const seenSecond: string[] = [];
      const c2 = await second.consume({ groupId, topics: [topic], handler: async (b) => void seenSecond.push(...b.events.map((e) => e.event.id)) });
      await until(() => seenSecond.length >= 10, h.settleMs + 20_000, 'second consumption');
      await new Promise((r) => setTimeout(r, 300));
      await c2.stop();
      expect(seenSecond.sort()).toEqual(after.map((e) => e.id).sort());
    });

    it('delivers again what a failed handler did not finish', async () => {
      const log = await open();
      const topic = topicName();
      await log.ensureTopics([topic]);
      const events = Array.from({ length: 10 }, (_, i) => ev('same-key', i));
      await log.append(topic, events);
      const applied: number[] = [];
      let failures = 0;
      const consumer = await log.consume({
        groupId: `g-${randomUUID()}`,
        topics: [topic],
        handler: async (batch) => {
          for (const e of batch.events) {
            const n = (e.event.data as { n: number }).n;
            if (n === 5 && failures < 2) {
              failures++;
              throw new Error('handler crashed');
            }
            if (!applied.includes(n)) applied.push(n);
          }
        },
      });
      await until(() => applied.length >= 10, h.settleMs + 20_000, 'redelivery');
      await consumer.stop();
      expect(failures).toBe(2);
      expect(applied).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    describe('a poison message (one whose handling keeps failing on its own)', () => {
      const n = (e: LoggedEvent) => (e.event.data as { n: number }).n;
      /** A group handling ten events of one key (one partition: in order), of which `poison` always throws. */
      async function consumeWithPoison(log: EventLog, topic: string, groupId: string, poison: number, policy: ConsumeOptions['poison']) {
        const applied: number[] = [];
        let poisonTries = 0;
        const consumer = await log.consume({
          groupId,
          topics: [topic],
          poison: policy,
          handler: async (batch) => {
            for (const e of batch.events) {
              if (n(e) === poison) {
                poisonTries++;
                throw new Error(`cannot handle event ${poison}`);
              }
              if (!applied.includes(n(e))) applied.push(n(e));
            }
          },
        });
        return { applied, tries: () => poisonTries, consumer };
      }

      it('is settled once and committed; the others of its batch, and later events, go on', async () => {
        const log = await open();
        const topic = topicName();
        const groupId = `g-${randomUUID()}`;
        await log.ensureTopics([topic]);
        await log.append(topic, Array.from({ length: 10 }, (_, i) => ev('poison-key', i)));
        const settled: { n: number; error: string }[] = [];
        const c = await consumeWithPoison(log, topic, groupId, 3, { attempts: 3, settle: async (m, error) => void settled.push({ n: n(m), error: (error as Error).message }) });
        await until(() => c.applied.length === 9, h.settleMs + 20_000, 'the events around the poison one');
        await log.append(topic, [ev('poison-key', 10)]);
        await until(() => c.applied.includes(10), h.settleMs + 20_000, 'an event appended after it');
        await c.consumer.stop();
        expect(c.applied).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9, 10]);
        expect(settled).toEqual([{ n: 3, error: 'cannot handle event 3' }]);
        // Its batch once, then `attempts` times on its own: never again.
        expect(c.tries()).toBe(4);
        const again: number[] = [];
        const next = await (await open()).consume({ groupId, topics: [topic], handler: async (b) => void again.push(...b.events.map(n)) });
        await new Promise((r) => setTimeout(r, h.settleMs + 500));
        await next.stop();
        expect(again).toEqual([]);
      });

      it('without a policy, is logged, counted and passed', async () => {
        const log = await open();
        const topic = topicName();
        const groupId = `g-${randomUUID()}`;
        await log.ensureTopics([topic]);
        await log.append(topic, Array.from({ length: 10 }, (_, i) => ev('poison-key', i)));
        const c = await consumeWithPoison(log, topic, groupId, 0, undefined);
        await until(() => c.applied.length === 9, h.settleMs + 20_000, 'the events after the poison one');
        await c.consumer.stop();
        expect(c.applied).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
        expect(poisonMessagesSettled(groupId)).toBe(1);
      });

      it('that cannot be settled stays uncommitted, holds the events behind it, and comes back', async () => {
        const log = await open();
        const topic = topicName();
        await log.ensureTopics([topic]);
        await log.append(topic, Array.from({ length: 10 }, (_, i) => ev('poison-key', i)));
        let settleCalls = 0;
        let appliedWhenSettled: number[] = [];
        const c = await consumeWithPoison(log, topic, `g-${randomUUID()}`, 5, {
          attempts: 2,
          settle: async () => {
            if (++settleCalls < 3) throw new Error('the error result cannot be written');
            appliedWhenSettled = [...c.applied];
          },
        });
        await until(() => c.applied.length === 9, h.settleMs + 30_000, 'the events after the poison one');
        await c.consumer.stop();
        expect(settleCalls).toBe(3);
        // Nothing behind the poison message was handled before it was settled.
        expect(appliedWhenSettled).toEqual([0, 1, 2, 3, 4]);
        expect(c.applied).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 9]);
      });

      it('is never made of a failure the policy calls transient: that is retried until it passes', async () => {
        const log = await open();
        const topic = topicName();
        await log.ensureTopics([topic]);
        await log.append(topic, Array.from({ length: 4 }, (_, i) => ev('poison-key', i)));
        const settled: number[] = [];
        let storeDown = 5;
        const applied: number[] = [];
        const consumer = await log.consume({
          groupId: `g-${randomUUID()}`,
          topics: [topic],
          poison: { attempts: 2, isTransient: (e) => (e as Error).message === 'store unavailable', settle: async (m) => void settled.push(n(m)) },
          handler: async (batch) => {
            for (const e of batch.events) {
              if (n(e) === 2 && storeDown-- > 0) throw new Error('store unavailable');
              if (!applied.includes(n(e))) applied.push(n(e));
            }
          },
        });
        await until(() => applied.length === 4, h.settleMs + 60_000, 'every event, once the store is back');
        await consumer.stop();
        expect(settled).toEqual([]);
        expect(applied).toEqual([0, 1, 2, 3]);
      });
    });

    it('redelivers to a new member what a crashed member had not committed', async () => {
      const topic = topicName();
      const groupId = `g-${randomUUID()}`;
      const crashing = await open();
      await crashing.ensureTopics([topic]);
      const events = Array.from({ length: 8 }, (_, i) => ev('crash-key', i));
      await crashing.append(topic, events);
      let received = 0;
      // The member takes the batch and dies before its handler finishes: nothing is committed.
      await crashing.consume({
        groupId,
        topics: [topic],
        handler: () => {
          received += 1;
          return new Promise<void>(() => undefined);
        },
      });
      await until(() => received > 0, h.settleMs + 20_000, 'first delivery');
      await crashing.close();

      const survivor = await open();
      await survivor.ensureTopics([topic]);
      const seen: number[] = [];
      const c = await survivor.consume({ groupId, topics: [topic], handler: async (b) => void seen.push(...b.events.map((e) => (e.event.data as { n: number }).n)) });
      await until(() => seen.length >= 8, h.settleMs + 30_000, 'redelivery to the survivor');
      await c.stop();
      expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    });

    it('shares the partitions of a topic between two members of one group', async () => {
      const topic = topicName();
      const groupId = `g-${randomUUID()}`;
      const a = await open();
      const b = await open();
      await a.ensureTopics([topic]);
      await b.ensureTopics([topic]);
      const partitions = a.partitionCount(topic);
      expect(partitions).toBeGreaterThanOrEqual(2);
      const seenBy = { a: new Map<string, number>(), b: new Map<string, number>() };
      const record = (who: 'a' | 'b') => async (batch: ConsumedBatch) => {
        for (const e of batch.events) seenBy[who].set(e.event.id, batch.partition);
      };
      const ca = await a.consume({ groupId, topics: [topic], handler: record('a') });
      const cb = await b.consume({ groupId, topics: [topic], handler: record('b') });
      await until(
        () => (ca.assignment()[topic]?.length ?? 0) > 0 && (cb.assignment()[topic]?.length ?? 0) > 0 &&
          (ca.assignment()[topic].length + cb.assignment()[topic].length === partitions),
        h.settleMs + 30_000,
        'both members to get partitions',
      );
      const pa = new Set(ca.assignment()[topic]);
      for (const p of cb.assignment()[topic]) expect(pa.has(p)).toBe(false);

      const events = Array.from({ length: 200 }, (_, i) => ev(`share-${i}`, i));
      await a.append(topic, events);
      await until(() => new Set([...seenBy.a.keys(), ...seenBy.b.keys()]).size >= 200, h.settleMs + 20_000, 'all events');
      await ca.stop();
      await cb.stop();
      expect(seenBy.a.size).toBeGreaterThan(0);
      expect(seenBy.b.size).toBeGreaterThan(0);
      for (const p of seenBy.a.values()) expect(pa.has(p)).toBe(true);
      for (const p of seenBy.b.values()) expect(pa.has(p)).toBe(false);
    });
  });
}
