import { Kafka, Partitioners, Producer } from 'kafkajs';
import { encodeEvent, EventEnvelope } from '@crawlhub/contracts';
import { LogPosition } from '../../event-log.port';

export const MiB = 1024 * 1024;
/** Largest record batch a topic accepts (`max.message.bytes`), matching the broker setting. */
export const MAX_MESSAGE_BYTES = 16 * MiB;
/** At most this many events per produce request (kafkajs groups messages in O(n^2)). */
const MAX_REQUEST_EVENTS = 2000;
/** Per-record overhead budget when sizing produce requests. */
const RECORD_OVERHEAD = 64;

/** A message for the producer, with its size against the request limits. */
export interface OutgoingMessage {
  key: string;
  value: Buffer;
  partition: number;
  timestamp: string;
  size: number;
}

export type EncodedEvent = Omit<OutgoingMessage, 'partition'>;

/** An event's record: its wire form and size, refused when the topic could not take it. */
export function encodedEvent(event: EventEnvelope): EncodedEvent {
  const value = encodeEvent(event);
  const size = value.length + Buffer.byteLength(event.key) + RECORD_OVERHEAD;
  if (size > MAX_MESSAGE_BYTES) throw new Error(`event ${event.id} (${event.type}) is too large for the log: ${value.length} bytes`);
  return { key: event.key, value, timestamp: String(event.occurredAt), size };
}

/** Messages of one append for one lane. */
interface QueuedSend {
  topic: string;
  messages: OutgoingMessage[];
  resolve(positions: LogPosition[]): void;
  reject(e: unknown): void;
}

/**
 * One idempotent producer (acks=all) and its queue: one request in flight at a time, and
 * the sends that queued up meanwhile go together in the next one, in queue order.
 */
export class ProducerLane {
  private producer: Promise<Producer> | null = null;
  private readonly queue: QueuedSend[] = [];
  private sending: Promise<void> | null = null;

  constructor(private readonly kafka: Kafka, private readonly maxRequestBytes: number) {}

  enqueue(topic: string, messages: OutgoingMessage[]): Promise<LogPosition[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ topic, messages, resolve, reject });
      this.kick();
    });
  }

  private kick(): void {
    if (this.sending !== null) return;
    this.sending = this.drain().finally(() => {
      this.sending = null;
      if (this.queue.length > 0) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      // The sends at the head of the queue that fit in one request together.
      const batch: QueuedSend[] = [];
      let count = 0;
      let bytes = 0;
      for (const q of this.queue) {
        const size = q.messages.reduce((sum, m) => sum + m.size, 0);
        if (batch.length > 0 && (count + q.messages.length > MAX_REQUEST_EVENTS || bytes + size > this.maxRequestBytes)) break;
        batch.push(q);
        count += q.messages.length;
        bytes += size;
      }
      this.queue.splice(0, batch.length);
      try {
        const producer = await this.client();
        if (batch.length === 1) batch[0].resolve(await this.sendInChunks(producer, batch[0].topic, batch[0].messages));
        else for (const [q, positions] of await this.sendTogether(producer, batch)) q.resolve(positions);
      } catch (e) {
        for (const q of batch) q.reject(e);
      }
    }
  }

  /** Several sends in one request; each gets the offsets of its own messages. */
  private async sendTogether(producer: Producer, batch: QueuedSend[]): Promise<[QueuedSend, LogPosition[]][]> {
    const byTopic = new Map<string, OutgoingMessage[]>();
    for (const q of batch) byTopic.set(q.topic, [...(byTopic.get(q.topic) ?? []), ...q.messages]);
    const metadata = await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages: messages.map(withoutSize) })) });
    const next = new Map<string, number>();
    for (const m of metadata) if (m.baseOffset !== undefined) next.set(`${m.topicName}\u0000${m.partition}`, Number(m.baseOffset));
    // Within a (topic, partition), messages take offsets in the order they were sent: the queue's order.
    return batch.map((q) => [q, q.messages.map((m) => positionOf(next, q.topic, m.partition))]);
  }

  /** One send, in as many requests as its size needs. */
  private async sendInChunks(producer: Producer, topic: string, messages: OutgoingMessage[]): Promise<LogPosition[]> {
    const positions: LogPosition[] = [];
    let start = 0;
    while (start < messages.length) {
      // One request per chunk; a chunk holds one record batch per partition.
      let end = start;
      let bytes = 0;
      while (end < messages.length && end - start < MAX_REQUEST_EVENTS) {
        if (end > start && bytes + messages[end].size > this.maxRequestBytes) break;
        bytes += messages[end].size;
        end++;
      }
      const chunk = messages.slice(start, end);
      const metadata = await producer.send({ topic, acks: -1, messages: chunk.map(withoutSize) });
      const next = new Map<string, number>();
      for (const m of metadata) if (m.topicName === topic && m.baseOffset !== undefined) next.set(`${topic}\u0000${m.partition}`, Number(m.baseOffset));
      for (const m of chunk) positions.push(positionOf(next, topic, m.partition));
      start = end;
    }
    return positions;
  }

  /** Connects the producer now (its failure is met again by the next send). */
  warm(): void {
    this.client().catch(() => undefined);
  }

  private client(): Promise<Producer> {
    if (!this.producer) {
      const producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner, // unused: every message names its partition
      });
      this.producer = producer.connect().then(() => producer);
      this.producer.catch(() => (this.producer = null));
    }
    return this.producer;
  }

  /** Waits for the sends under way, then disconnects. */
  async close(): Promise<void> {
    await this.sending?.catch(() => undefined);
    const producer = this.producer;
    this.producer = null;
    await producer?.then(
      (p) => p.disconnect().catch(() => undefined),
      () => undefined,
    );
  }
}

function withoutSize({ key, value, partition, timestamp }: OutgoingMessage): Omit<OutgoingMessage, 'size'> {
  return { key, value, partition, timestamp };
}

/** The next offset of (topic, partition) in a request's answer, taken. */
function positionOf(next: Map<string, number>, topic: string, partition: number): LogPosition {
  const slot = `${topic}\u0000${partition}`;
  const offset = next.get(slot);
  if (offset === undefined) throw new Error(`no offset returned for ${topic}/${partition}`);
  next.set(slot, offset + 1);
  return { topic, partition, offset };
}

