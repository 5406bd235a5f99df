import { EventEnvelope } from '@crawlhub/contracts';
import { ConsumeOptions, Consumption, EventLog, LoggedEvent, LogPosition } from './event-log.port';

/**
 * Puts every topic and consumer group of a deployment under a prefix, so several
 * deployments (or test runs) can share one Kafka cluster. Callers keep using the
 * logical topic names: they go in prefixed and come back plain.
 */
export class NamespacedEventLog implements EventLog {
  constructor(private readonly inner: EventLog, private readonly prefix: string) {}

  get kind() {
    return this.inner.kind;
  }

  private physical(topic: string): string {
    return this.prefix + topic;
  }

  private logical<T extends LogPosition>(e: T): T {
    return { ...e, topic: e.topic.slice(this.prefix.length) };
  }

  ensureTopics(topics: string[]): Promise<void> {
    return this.inner.ensureTopics(topics.map((t) => this.physical(t)));
  }

  partitionCount(topic: string): number {
    return this.inner.partitionCount(this.physical(topic));
  }

  async append(topic: string, events: EventEnvelope[]): Promise<LogPosition[]> {
    return (await this.inner.append(this.physical(topic), events)).map((p) => this.logical(p));
  }

  async consume(options: ConsumeOptions): Promise<Consumption> {
    const inner = await this.inner.consume({
      ...options,
      groupId: this.prefix + options.groupId,
      topics: options.topics.map((t) => this.physical(t)),
      handler: (batch) => options.handler({ topic: batch.topic.slice(this.prefix.length), partition: batch.partition, events: batch.events.map((e) => this.logical(e)) }),
      poison: options.poison && { ...options.poison, settle: options.poison.settle && ((m, error) => options.poison!.settle!(this.logical(m), error)) },
    });
    return {
      assignment: () => Object.fromEntries(Object.entries(inner.assignment()).map(([t, p]) => [t.slice(this.prefix.length), p])),
      stop: () => inner.stop(),
    };
  }

  async read(topic: string, partition: number, fromOffset: number, limit: number): Promise<LoggedEvent[]> {
    return (await this.inner.read(this.physical(topic), partition, fromOffset, limit)).map((e) => this.logical(e));
  }

  endOffsets(topic: string): Promise<number[]> {
    return this.inner.endOffsets(this.physical(topic));
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
