import { createEvent } from '@crawlhub/contracts';
import { partitionForKey } from '@crawlhub/eventlog';
import { KafkaEventLog } from '../../libs/eventlog/src/adapters/kafka/kafka-event-log';
import { eventLogContract } from '../contract/event-log.contract';
import { describeIf, needs } from '../support/skip';
import { systemStamps } from '../support/stamps';

// Needs a real broker: test/run-tests.sh starts one (test/infra/kafka.sh) and sets KAFKA_BROKERS.
const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);

describeIf(needs.kafka)('KafkaEventLog', () => {
  jest.setTimeout(90_000);
  let instance = 0;
  const open = (options: { producers?: number } = {}) =>
    new KafkaEventLog({
      brokers,
      clientId: `contract-${process.pid}-${++instance}`,
      partitions: 4,
      logLevel: 'nothing',
      sessionTimeoutMs: 6_000,
      heartbeatIntervalMs: 500,
      maxWaitMs: 200,
      stopGraceMs: 1_000,
      ...options,
    });
  eventLogContract('kafka', () => ({ settleMs: 10_000, open: async () => open() }));

  /** Issue 18: one producer serialised every append, so a bulk write of one job held up every other job's. */
  it('sends appends of partitions on different producers at the same time: a small one is not held behind a large one', async () => {
    const log = open();
    const topic = `lanes-${process.pid}-${Date.now()}`;
    try {
      await log.ensureTopics([topic]);
      const keyOn = (partition: number) => Array.from({ length: 1000 }, (_, i) => `job-${i}`).find((k) => partitionForKey(k, 4) === partition)!;
      const [bigKey, smallKey] = [keyOn(0), keyOn(1)];
      const event = (key: string, lines: string[]) => createEvent({ type: 'test.lines', key, data: {}, lines, actor: { kind: 'system', id: 'test' } }, systemStamps);
      // 12 events of about 3 MB: at least 9 produce requests of 4 MiB, one after the other on their lane.
      const line = JSON.stringify({ text: 'x'.repeat(1000) });
      const big = Array.from({ length: 12 }, () => event(bigKey, Array.from({ length: 3000 }, () => line)));
      const order: string[] = [];
      const bigDone = log.append(topic, big).then(() => order.push('big'));
      const smallDone = log.append(topic, [event(smallKey, [line])]).then(() => order.push('small'));
      await Promise.all([bigDone, smallDone]);
      expect(order).toEqual(['small', 'big']);
    } finally {
      await log.close();
    }
  });
});
