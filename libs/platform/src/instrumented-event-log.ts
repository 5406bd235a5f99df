import { ConsumeOptions, Consumption, EventLog, LoggedEvent, LogPosition } from '@crawlhub/eventlog';
import { EventEnvelope } from '@crawlhub/contracts';
import { consumerLag, eventLogAppendDuration } from '@crawlhub/ops';

/**
 * The event log of a process, measured for /metrics: the time of every append (per topic
 * and outcome), and the lag of every consumer group of this process: per partition it has
 * handled since start, the log's end offset minus the next offset it will handle. One
 * decorator over both adapters, so neither adapter knows about metrics.
 */
export function instrumentEventLog(inner: EventLog): EventLog {
  /** group -> topic -> partition -> next offset to handle. */
  const handled = new Map<string, Map<string, Map<number, number>>>();
  const removeLagSource = consumerLag.add(async () => {
    const samples = [];
    for (const [group, topics] of handled) {
      for (const [topic, partitions] of topics) {
        const ends = await inner.endOffsets(topic);
        for (const [partition, next] of partitions) samples.push({ labels: { group, topic, partition }, value: Math.max(0, (ends[partition] ?? next) - next) });
      }
    }
    return samples;
  });
  const noteHandled = (group: string, topic: string, partition: number, events: LoggedEvent[]) => {
    if (events.length === 0) return;
    const topics = handled.get(group) ?? handled.set(group, new Map()).get(group)!;
    const partitions = topics.get(topic) ?? topics.set(topic, new Map()).get(topic)!;
    partitions.set(partition, Math.max(partitions.get(partition) ?? 0, events[events.length - 1].offset + 1));
  };
  const instrumented: EventLog = {
    get kind() {
      return inner.kind;
    },
    ensureTopics: (topics) => inner.ensureTopics(topics),
    partitionCount: (topic) => inner.partitionCount(topic),
    async append(topic: string, events: EventEnvelope[]): Promise<LogPosition[]> {
      const stop = eventLogAppendDuration.startTimer({ topic });
      try {
        const positions = await inner.append(topic, events);
        stop({ outcome: 'ok' });
        return positions;
      } catch (e) {
        stop({ outcome: 'error' });
        throw e;
      }
    },
    consume(options: ConsumeOptions): Promise<Consumption> {
      return inner.consume({
        ...options,
        handler: async (batch) => {
          await options.handler(batch);
          noteHandled(options.groupId, batch.topic, batch.partition, batch.events);
        },
      });
    },
    read: (topic, partition, fromOffset, limit) => inner.read(topic, partition, fromOffset, limit),
    endOffsets: (topic) => inner.endOffsets(topic),
    async close() {
      removeLagSource();
      await inner.close();
    },
  };
  return instrumented;
}
