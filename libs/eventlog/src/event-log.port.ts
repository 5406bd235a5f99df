import { EventEnvelope } from '@crawlhub/contracts';

export const EVENT_LOG = Symbol('EVENT_LOG');

/** Where an appended event landed. Offsets start at 0 in every partition. */
export interface LogPosition {
  topic: string;
  partition: number;
  offset: number;
}

export interface LoggedEvent extends LogPosition {
  event: EventEnvelope;
}

export interface ConsumedBatch {
  topic: string;
  partition: number;
  events: LoggedEvent[];
}

export interface ConsumeOptions {
  groupId: string;
  topics: string[];
  /**
   * Called with events of one partition, in offset order. The batch's offsets are
   * committed only after the returned promise resolves; if it rejects, its events are
   * given again one by one, and one that keeps failing on its own is settled by `poison`
   * and passed, so it never holds up its partition (poison-messages.ts). Failures of
   * the platform (`poison.isTransient`, or a message that cannot be settled) leave the
   * batch uncommitted: it is delivered again after a backoff (at-least-once).
   */
  handler: (batch: ConsumedBatch) => Promise<void>;
  /** How a message that keeps failing is settled (default: logged, counted and passed). */
  poison?: PoisonPolicy;
  /** Where a group with no committed offset starts: the beginning (default) or the end. */
  fromBeginning?: boolean;
  /**
   * How many of its partitions this member works on at once (default 1: one after the
   * other). Above 1, a slow batch of one partition does not hold up the others; each
   * partition still has at most one batch in flight, committed when its handler resolves.
   */
  partitionsConcurrently?: number;
  /**
   * Pipelined consumption, for work queues whose events are independent of each other
   * (consumeWorkQueue): the member takes further batches, of the same partition too, while
   * earlier ones are still being handled, up to `maxEventsInFlight` events in all; a
   * partition's offset is committed in order, up to its first batch not done
   * (pipelined-partitions.ts). A slow event then holds up no other. Without it a partition
   * has one batch in flight at a time, so effects keep the log's order (projections,
   * deciders), and on Kafka a slow batch also holds up the member's next fetch.
   */
  pipeline?: { maxEventsInFlight: number };
}

export interface Consumption {
  /** Partitions of each topic currently assigned to this member. */
  assignment(): Record<string, number[]>;
  stop(): Promise<void>;
}

/**
 * The source of truth. Appends are durable before the promise resolves; events with
 * the same key land in the same partition, in append order (Kafka's key hashing).
 */
export interface EventLog {
  readonly kind: 'sqlite' | 'kafka';
  /** Topics must be known before use; creates them if missing. */
  ensureTopics(topics: string[]): Promise<void>;
  partitionCount(topic: string): number;
  append(topic: string, events: EventEnvelope[]): Promise<LogPosition[]>;
  consume(options: ConsumeOptions): Promise<Consumption>;
  /** Replay: events of one partition from an offset, at most `limit`, in order. */
  read(topic: string, partition: number, fromOffset: number, limit: number): Promise<LoggedEvent[]>;
  /** The next offset to be written in each partition (the high-water mark). */
  endOffsets(topic: string): Promise<number[]>;
  close(): Promise<void>;
}

/**
 * What a consumer does with a poison message: one whose handling fails every time, on
 * its own. Delivery is at least once and a partition is consumed in order, so without
 * this such a message would come back for ever and hold up every message behind it
 * (poison-messages.ts; docs/DESIGN.md, "Failures stay inside their role").
 */
export interface PoisonPolicy {
  /** How many times a message is handled on its own before it is poison (default 3). */
  attempts?: number;
  /**
   * Settles a poison message for good, before the group's offset moves past it: answers
   * the caller that waits for it with an error result, records it. If this throws, nothing
   * is committed and the batch comes back after the adapter's backoff.
   */
  settle?: (message: LoggedEvent, error: unknown) => Promise<void>;
  /**
   * A failure of the platform rather than of the message (a store that is down or full):
   * it never makes a message poison; the batch is delivered again after a backoff.
   */
  isTransient?: (error: unknown) => boolean;
}
