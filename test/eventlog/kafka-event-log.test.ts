import { KafkaEventLog } from '../../libs/eventlog/src/adapters/kafka/kafka-event-log';
import { eventLogContract } from '../contract/event-log.contract';
import { describeIf, needs } from '../support/skip';

// Needs a real broker: test/run-tests.sh starts one (test/infra/kafka.sh) and sets KAFKA_BROKERS.
const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);

describeIf(needs.kafka)('KafkaEventLog', () => {
  jest.setTimeout(90_000);
  let instance = 0;
  eventLogContract('kafka', () => ({
    settleMs: 10_000,
    open: async () =>
      new KafkaEventLog({
        brokers,
        clientId: `contract-${process.pid}-${++instance}`,
        partitions: 4,
        logLevel: 'nothing',
        sessionTimeoutMs: 6_000,
        heartbeatIntervalMs: 500,
        maxWaitMs: 200,
        stopGraceMs: 1_000,
      }),
  }));
});
