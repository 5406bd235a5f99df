import type { Consumer, EachBatchPayload, Logger } from 'kafkajs';
import { KafkaConsumption } from './kafka-consumption';

/**
 * A plain (not pipelined) consumption against a stand-in for kafkajs' consumer whose
 * offset commits answer only when the test lets them: a batch's commit must not hold up
 * the next batch (kafkajs fetches again only once eachBatch returns, and the projector's
 * read-your-writes waits sat behind a coordinator round trip per batch), yet commits stay
 * in order per partition, and a stopping member leaves only after they land.
 */
describe('KafkaConsumption commits', () => {
  const settings = { maxBatchEvents: 1000, heartbeatIntervalMs: 1000, stopGraceMs: 5000, maxRetryBackoffMs: 5000 };
  const logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined } as unknown as Logger;

  function standIn() {
    const commits: { offset: string; land: () => void }[] = [];
    const steps: string[] = [];
    let eachBatch!: (payload: EachBatchPayload) => Promise<void>;
    const consumer = {
      events: { GROUP_JOIN: 'join', CRASH: 'crash' },
      on: () => undefined,
      connect: async () => undefined,
      subscribe: async () => undefined,
      run: async (config: { eachBatch: typeof eachBatch }) => void (eachBatch = config.eachBatch),
      commitOffsets: (offsets: { offset: string }[]) =>
        new Promise<void>((resolve) => {
          steps.push(`commit ${offsets[0].offset}`);
          commits.push({ offset: offsets[0].offset, land: resolve });
        }),
      disconnect: async () => void steps.push('disconnect'),
    } as unknown as Consumer;
    const deliver = (first: number, count: number) => {
      const messages = Array.from({ length: count }, (_, i) => ({ offset: String(first + i), value: Buffer.from(JSON.stringify({ id: `e${first + i}`, type: 't', key: 'k' })) }));
      return eachBatch({
        batch: { topic: 'topic', partition: 0, messages },
        resolveOffset: (offset: string) => void steps.push(`resolved ${offset}`),
        heartbeat: async () => undefined,
        commitOffsetsIfNecessary: (offsets?: { topics: { partitions: { offset: string }[] }[] }) => consumer.commitOffsets([{ topic: 'topic', partition: 0, offset: offsets!.topics[0].partitions[0].offset }]),
        isRunning: () => true,
        isStale: () => false,
        pause: () => () => undefined,
      } as unknown as EachBatchPayload);
    };
    return { consumer, commits, steps, deliver };
  }

  const within = <T>(work: Promise<T>, ms: number) => Promise.race([work.then(() => 'returned'), new Promise((r) => setTimeout(() => r('held'), ms))]);

  it('hands kafkajs back each batch before its commit lands, and commits a partition’s offsets in order', async () => {
    const { consumer, commits, deliver } = standIn();
    const handled: string[] = [];
    const consumption = new KafkaConsumption(consumer, { groupId: 'g', topics: ['topic'], handler: async (b) => void handled.push(...b.events.map((e) => e.event.id)) }, logger, settings);
    await consumption.start(1);

    expect(await within(deliver(0, 2), 1000)).toBe('returned');
    expect(await within(deliver(2, 2), 1000)).toBe('returned');
    expect(handled).toEqual(['e0', 'e1', 'e2', 'e3']);
    // The second commit waits for the first: the committed offset only moves forward.
    expect(commits.map((c) => c.offset)).toEqual(['2']);
    commits[0].land();
    await new Promise((r) => setImmediate(r));
    expect(commits.map((c) => c.offset)).toEqual(['2', '4']);
    commits[1].land();
    await consumption.stop();
  });

  it('leaves the group only after the commits under way have landed', async () => {
    const { consumer, commits, steps, deliver } = standIn();
    const consumption = new KafkaConsumption(consumer, { groupId: 'g', topics: ['topic'], handler: async () => undefined }, logger, settings);
    await consumption.start(1);
    await deliver(0, 3);
    const stopped = consumption.stop();
    await new Promise((r) => setTimeout(r, 50));
    expect(steps).not.toContain('disconnect');
    commits[0].land();
    await stopped;
    expect(steps.slice(-2)).toEqual(['commit 3', 'disconnect']);
  });
});
