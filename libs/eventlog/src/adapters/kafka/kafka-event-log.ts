import {
  Admin,
  Kafka,
  logLevel as KafkaLogLevel,
  Logger,
  RetryOptions,
} from 'kafkajs';
import { decodeEvent, encodeEvent, EventEnvelope } from '@crawlhub/contracts';
import { ConsumeOptions, Consumption, EventLog, LoggedEvent, LogPosition } from '../../event-log.port';
import { partitionForKey } from '../../partitioner';
import { isolatePoisonMessages } from '../../poison-messages';
import { KafkaConsumption } from './kafka-consumption';
import { kafkaLogLines } from './kafka-log-lines';
import { EncodedEvent, encodedEvent, MAX_MESSAGE_BYTES, MiB, OutgoingMessage, ProducerLane } from './kafka-producer-lane';
import { FetchedPartition, PartitionFetchCluster, partitionFetchCluster } from './partition-fetch-cluster';
import { useNativeCrc32c } from './native-crc32c';

// Before kafkajs produces or fetches anything: it then checksums record batches natively (see native-crc32c.ts).
useNativeCrc32c();

export type KafkaEventLogLevel = 'nothing' | 'error' | 'warn' | 'info' | 'debug';

export interface KafkaEventLogOptions {
  /** Bootstrap brokers, `host:port`. */
  brokers: string[];
  clientId: string;
  /** Partitions of every topic this instance creates (existing topics keep theirs). */
  partitions: number;
  /** Replicas of every topic this instance creates (default 1). */
  replicationFactor?: number;
  /** kafkajs' own logging (default 'error'); handler failures are logged at 'error'. */
  logLevel?: KafkaEventLogLevel;
  /** Extra topic configs for created topics (defaults: 16 MiB messages, retention forever). */
  topicConfig?: Record<string, string>;
  /** A member that stops heartbeating for this long loses its partitions (default 10 s). */
  sessionTimeoutMs?: number;
  /** How long the group waits for members to rejoin during a rebalance (default 30 s). */
  rebalanceTimeoutMs?: number;
  /** Heartbeat period, also while a handler runs (default 1 s). */
  heartbeatIntervalMs?: number;
  /** Longest wait of an idle fetch: bounds delivery latency and rebalance reaction (default 250 ms). */
  maxWaitMs?: number;
  /** At most this many events per handler call (default 1000). */
  maxBatchEvents?: number;
  /** How many partitions one member works on at once (default 1). */
  partitionsConsumedConcurrently?: number;
  /** On stop, how long a running handler may still finish and commit (default 5 s). */
  stopGraceMs?: number;
  /** Upper bound of the retry delay after a failed handler (default 5 s; it starts at 100 ms). */
  maxRetryBackoffMs?: number;
  /** Requests over this many bytes of encoded events are split (default 4 MiB). */
  maxRequestBytes?: number;
  /**
   * Idempotent producers sending at once (default 4). Each partition is always written by
   * the same one (partition modulo this), so its order holds; see `append`.
   */
  producers?: number;
  /** Connection and request retries of kafkajs. */
  retry?: RetryOptions;
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
}

const READ_COMMITTED = 1;

const LOG_LEVELS: Record<KafkaEventLogLevel, KafkaLogLevel> = {
  nothing: KafkaLogLevel.NOTHING,
  error: KafkaLogLevel.ERROR,
  warn: KafkaLogLevel.WARN,
  info: KafkaLogLevel.INFO,
  debug: KafkaLogLevel.DEBUG,
};

/** Errors after which a fetch is retried on fresh metadata. */
const STALE_METADATA = new Set([
  'NOT_LEADER_FOR_PARTITION',
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_LEADER_EPOCH',
  'REPLICA_NOT_AVAILABLE',
  'OFFSET_NOT_AVAILABLE',
]);

/**
 * The Kafka adapter of the event log (kafkajs). Appends go through one idempotent
 * producer (acks=all), keyed and partitioned exactly like the embedded log
 * (`partitionForKey`, Kafka's default partitioner). Consumers are group members that
 * commit a batch's offsets only after its handler resolves; a failed batch is fetched
 * again after a backoff. `read` fetches straight from the partition leader, so it
 * touches no consumer group.
 */
/** How long a start waits for the partitions of its topics to be served (they are being created). */
const TOPIC_READY_TIMEOUT_MS = 30_000;

export class KafkaEventLog implements EventLog {
  readonly kind = 'kafka' as const;
  private readonly kafka: Kafka;
  private readonly logger: Logger;
  private readonly partitionsByTopic = new Map<string, number>();
  private readonly consumers = new Set<KafkaConsumption>();
  private admin: Promise<Admin> | null = null;
  private reader: Promise<PartitionFetchCluster> | null = null;
  /** Appends waiting for their partition count, in append order (see append). */
  private readonly admissions: AdmittedAppend[] = [];
  /** The loop handing admitted appends to their producer lanes, while it runs. */
  private admitting: Promise<void> | null = null;
  private readonly lanes: ProducerLane[];
  private lanesWarmed = false;
  private closed = false;

  constructor(private readonly options: KafkaEventLogOptions) {
    if (!options.brokers.length) throw new Error('KafkaEventLog needs at least one broker');
    if (!Number.isInteger(options.partitions) || options.partitions < 1) throw new Error('partitions must be a positive integer');
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      logLevel: LOG_LEVELS[options.logLevel ?? 'error'],
      logCreator: kafkaLogLines(),
      retry: options.retry,
      connectionTimeout: options.connectionTimeoutMs ?? 3_000,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
    });
    this.logger = this.kafka.logger().namespace('KafkaEventLog');
    const producers = options.producers ?? 4;
    if (!Number.isInteger(producers) || producers < 1) throw new Error('producers must be a positive integer');
    this.lanes = Array.from({ length: producers }, () => new ProducerLane(this.kafka, options.maxRequestBytes ?? 4 * MiB));
  }

  // ---- topics ------------------------------------------------------------------------

  async ensureTopics(topics: string[]): Promise<void> {
    this.assertOpen();
    if (topics.length === 0) return;
    const admin = await this.adminClient();
    const existing = new Set(await admin.listTopics());
    const missing = [...new Set(topics)].filter((t) => !existing.has(t));
    if (missing.length > 0) {
      const configs: Record<string, string> = {
        'max.message.bytes': String(MAX_MESSAGE_BYTES),
        'retention.ms': '-1',
        'retention.bytes': '-1',
        ...(this.options.topicConfig ?? {}),
      };
      // Resolves false (no throw) for topics that another process created meanwhile. Its wait for
      // leaders can meet 'This server does not host this topic-partition' on a busy controller:
      // retriable, so it is asked again (the topics then exist) and untilServed does the waiting.
      const deadline = performance.now() + TOPIC_READY_TIMEOUT_MS;
      for (;;) {
        try {
          await admin.createTopics({
            waitForLeaders: true,
            topics: missing.map((topic) => ({
              topic,
              numPartitions: this.options.partitions,
              replicationFactor: this.options.replicationFactor ?? 1,
              configEntries: Object.entries(configs).map(([name, value]) => ({ name, value })),
            })),
          });
          break;
        } catch (e) {
          if (!(e as { retriable?: boolean }).retriable || performance.now() > deadline) throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }
    await this.untilServed([...new Set(topics)]);
    await this.loadPartitionCounts(topics);
  }

  /**
   * Waits until the broker serves every partition of the topics. createTopics waits for
   * leaders only for the topics it created itself: when another process created them a
   * moment before (the projector thread and the APIs start together), it returns at once
   * and the first reads answered "This server does not host this topic-partition" or "not
   * the leader", which ended that process's start. Those answers are retriable; anything
   * else, or a topic still not served after TOPIC_READY_TIMEOUT_MS, is thrown.
   */
  private async untilServed(topics: string[]): Promise<void> {
    const admin = await this.adminClient();
    const deadline = performance.now() + TOPIC_READY_TIMEOUT_MS;
    await Promise.all(
      topics.map(async (topic) => {
        for (;;) {
          try {
            return void (await admin.fetchTopicOffsets(topic));
          } catch (e) {
            // kafkajs 2.2.4 (its last release) throws a TypeError, destructuring an empty
            // answer, while the broker's metadata lists a topic just created without its
            // partitions: not served yet either.
            const notYet = (e as { retriable?: boolean }).retriable === true || e instanceof TypeError;
            if (!notYet || performance.now() > deadline) throw e;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      }),
    );
  }

  partitionCount(topic: string): number {
    const n = this.partitionsByTopic.get(topic);
    if (n === undefined) throw new Error(`unknown topic ${topic} (call ensureTopics first)`);
    return n;
  }

  private async loadPartitionCounts(topics: string[]): Promise<void> {
    const admin = await this.adminClient();
    const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
    for (const t of metadata) this.partitionsByTopic.set(t.name, t.partitions.length);
  }

  /** The partition count, asking the cluster when this instance has not seen the topic. */
  private async knownPartitionCount(topic: string): Promise<number> {
    if (!this.partitionsByTopic.has(topic)) await this.loadPartitionCounts([topic]);
    return this.partitionCount(topic);
  }

  // ---- append ------------------------------------------------------------------------

  /**
   * Appends go out through `producers` idempotent producers (lanes), each with one request
   * in flight (the idempotent producer's sequence numbers need it; kafkajs holds a lock per
   * broker around each request). A partition is always written by lane `partition % n`,
   * in append order: the order of a key's events holds, as with one producer, while the
   * requests of other partitions travel at the same time. Appends that queue up on a lane
   * while its request is out leave together in the next one (one `sendBatch`, across
   * topics), so concurrent small appends cost one round trip, not one each; an append
   * larger than a request goes alone, in chunks. Its events are encoded (and sized) before
   * it joins the queue, so an event that cannot be encoded fails its own append, never the
   * others of its request. An append whose events fall on several lanes resolves once
   * every lane has sent its part.
   */
  append(topic: string, events: EventEnvelope[]): Promise<LogPosition[]> {
    if (this.closed) return Promise.reject(new Error('event log closed'));
    if (events.length === 0) return Promise.resolve([]);
    let encoded: EncodedEvent[];
    try {
      encoded = events.map(encodedEvent);
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise<LogPosition[]>((resolve, reject) => {
      // The entry takes its place now; its partitions may need the topic's partition count first.
      this.admissions.push({ topic, messages: this.messagesOf(topic, encoded), resolve, reject });
      this.kickAdmissions();
    });
  }

  /** Starts the admitting loop unless it runs; an append queued while it was ending starts it again. */
  private kickAdmissions(): void {
    if (this.admitting !== null) return;
    this.admitting = this.admit().finally(() => {
      this.admitting = null;
      if (this.admissions.length > 0) this.kickAdmissions();
    });
  }

  /** Hands appends to their lanes in append order, so a partition's lane queue keeps that order. */
  private async admit(): Promise<void> {
    while (this.admissions.length > 0) {
      const head = this.admissions[0];
      let messages: OutgoingMessage[];
      try {
        messages = await head.messages;
      } catch (e) {
        this.admissions.shift();
        head.reject(e);
        continue;
      }
      this.admissions.shift();
      // Every lane connects at the first append, together: a lane first used later would make
      // its append wait for a producer's connection and id (a second or more on a broker).
      if (!this.lanesWarmed) {
        this.lanesWarmed = true;
        for (const lane of this.lanes) lane.warm();
      }
      const byLane = new Map<ProducerLane, number[]>();
      messages.forEach((m, i) => {
        const lane = this.lanes[m.partition % this.lanes.length];
        const indexes = byLane.get(lane);
        if (indexes) indexes.push(i);
        else byLane.set(lane, [i]);
      });
      const parts = [...byLane].map(([lane, indexes]) => lane.enqueue(head.topic, indexes.map((i) => messages[i])).then((positions) => ({ indexes, positions })));
      Promise.all(parts).then(
        (done) => {
          const positions = new Array<LogPosition>(messages.length);
          for (const part of done) part.indexes.forEach((i, k) => (positions[i] = part.positions[k]));
          head.resolve(positions);
        },
        (e: unknown) => head.reject(e),
      );
    }
  }

  private async messagesOf(topic: string, events: EncodedEvent[]): Promise<OutgoingMessage[]> {
    const partitions = await this.knownPartitionCount(topic);
    return events.map((e) => ({ ...e, partition: partitionForKey(e.key, partitions) }));
  }

  // ---- consume -----------------------------------------------------------------------

  async consume(options: ConsumeOptions): Promise<Consumption> {
    this.assertOpen();
    for (const topic of options.topics) await this.knownPartitionCount(topic);
    const heartbeatInterval = this.options.heartbeatIntervalMs ?? 1_000;
    const consumer = this.kafka.consumer({
      groupId: options.groupId,
      sessionTimeout: this.options.sessionTimeoutMs ?? 10_000,
      rebalanceTimeout: this.options.rebalanceTimeoutMs ?? 30_000,
      heartbeatInterval,
      maxWaitTimeInMs: this.options.maxWaitMs ?? 250,
      maxBytesPerPartition: 4 * MiB,
      maxBytes: 32 * MiB,
      allowAutoTopicCreation: false,
      readUncommitted: false,
    });
    const consumption = new KafkaConsumption(consumer, { ...options, handler: isolatePoisonMessages(options) }, this.logger, {
      maxBatchEvents: this.options.maxBatchEvents ?? 1000,
      heartbeatIntervalMs: heartbeatInterval,
      stopGraceMs: this.options.stopGraceMs ?? 5_000,
      maxRetryBackoffMs: this.options.maxRetryBackoffMs ?? 5_000,
    });
    try {
      await consumption.start(options.partitionsConcurrently ?? this.options.partitionsConsumedConcurrently ?? 1);
    } catch (err) {
      await consumption.stop().catch(() => undefined);
      throw err;
    }
    this.consumers.add(consumption);
    return {
      assignment: () => consumption.assignment(),
      stop: async () => {
        await consumption.stop();
        this.consumers.delete(consumption);
      },
    };
  }

  // ---- replay ------------------------------------------------------------------------

  async read(topic: string, partition: number, fromOffset: number, limit: number): Promise<LoggedEvent[]> {
    this.assertOpen();
    const out: LoggedEvent[] = [];
    if (limit <= 0) return out;
    const cluster = await this.readerCluster();
    await cluster.addTargetTopic(topic);
    let next = Math.max(0, fromOffset);
    let attempts = 0;
    while (out.length < limit) {
      let fetched: FetchedPartition | undefined;
      const maxBytes = Math.min(MAX_MESSAGE_BYTES, Math.max(256 * 1024, (limit - out.length) * 2048));
      try {
        const leaders = cluster.findLeaderForPartitions(topic, [partition]);
        const nodeId = Object.keys(leaders)[0];
        if (nodeId === undefined) throw new Error(`unknown partition ${topic}/${partition}`);
        const broker = await cluster.findBroker({ nodeId });
        const { responses } = await broker.fetch({
          isolationLevel: READ_COMMITTED,
          maxWaitTime: 0,
          minBytes: 0,
          maxBytes,
          topics: [{ topic, partitions: [{ partition, fetchOffset: String(next), maxBytes }] }],
        });
        fetched = responses.find((r) => r.topicName === topic)?.partitions.find((p) => p.partition === partition);
      } catch (err) {
        const type = (err as { type?: string }).type;
        if (type === 'OFFSET_OUT_OF_RANGE') {
          const ends = await this.endOffsets(topic);
          if (next >= (ends[partition] ?? 0)) break; // past the end: nothing to read
          throw err;
        }
        if (type !== undefined && STALE_METADATA.has(type) && attempts < 5) {
          attempts++;
          await sleep(100 * attempts);
          await cluster.refreshMetadata().catch(() => undefined);
          continue;
        }
        throw err;
      }
      attempts = 0;
      if (!fetched || fetched.messages.length === 0) break;
      let advanced = false;
      for (const m of fetched.messages) {
        const offset = Number(m.offset);
        if (offset < next) continue; // a record batch can start before the fetch offset
        next = offset + 1;
        advanced = true;
        if (m.isControlRecord || m.value === null) continue;
        out.push({ topic, partition, offset, event: decodeEvent(m.value) });
        if (out.length >= limit) break;
      }
      const end = Number(fetched.lastStableOffset !== undefined && Number(fetched.lastStableOffset) >= 0 ? fetched.lastStableOffset : fetched.highWatermark);
      if (!advanced || next >= end) break;
    }
    return out;
  }

  async endOffsets(topic: string): Promise<number[]> {
    this.assertOpen();
    const n = await this.knownPartitionCount(topic);
    const admin = await this.adminClient();
    const offsets = await admin.fetchTopicOffsets(topic);
    const ends = new Array<number>(n).fill(0);
    for (const o of offsets) if (o.partition < n) ends[o.partition] = Number(o.high ?? o.offset);
    return ends;
  }

  // ---- lifecycle ---------------------------------------------------------------------

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.consumers].map((c) => c.stop().catch(() => undefined)));
    this.consumers.clear();
    await this.admitting?.catch(() => undefined);
    await Promise.all(this.lanes.map((lane) => lane.close()));
    const clients: Promise<{ disconnect(): Promise<void> }>[] = [];
    if (this.admin) clients.push(this.admin);
    if (this.reader) clients.push(this.reader);
    await Promise.all(
      clients.map((c) =>
        c.then(
          (client) => client.disconnect().catch(() => undefined),
          () => undefined,
        ),
      ),
    );
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event log closed');
  }

  private adminClient(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      this.admin = admin.connect().then(() => admin);
      this.admin.catch(() => (this.admin = null));
    }
    return this.admin;
  }

  private readerCluster(): Promise<PartitionFetchCluster> {
    if (!this.reader) {
      this.reader = (async () => {
        const cluster = partitionFetchCluster(this.kafka, READ_COMMITTED);
        await cluster.connect();
        return cluster;
      })();
      this.reader.catch(() => (this.reader = null));
    }
    return this.reader;
  }
}

/** An append waiting for its turn to be handed to its lanes. */
interface AdmittedAppend {
  topic: string;
  /** Its messages once the topic's partition count is known (rejects when it cannot be). */
  messages: Promise<OutgoingMessage[]>;
  resolve(positions: LogPosition[]): void;
  reject(e: unknown): void;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
