import type { EventEnvelope } from '@crawlhub/contracts';
import type { Consumption, EventLog, PoisonPolicy } from './event-log.port';
import { handleAlone } from './poison-messages';

/** Lets at most `limit` tasks run at once; the others wait their turn in order. */
export class Limiter {
  private running = 0;
  private readonly queue: (() => void)[] = [];
  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((r) => this.queue.push(r));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.queue.shift()?.();
    }
  }
}

export interface WorkQueueOptions {
  groupId: string;
  topic: string;
  /** Bounds the work in flight (one limiter may serve several queues of a process). */
  limiter: Limiter;
  /** Does one event's work; the batch's offsets are committed when all of its events are done. */
  work: (event: EventEnvelope) => Promise<void>;
  /**
   * Answers the caller of an item whose work kept failing (a poison message) with an error
   * result, before the item is committed; if it throws, the item comes back later.
   */
  failed: (event: EventEnvelope, error: unknown) => Promise<void>;
}

/**
 * Work items a member takes from the log beyond those running (they wait in the limiter's
 * queue): enough that a few slow items never leave the workers idle, few enough to bound
 * the memory of a member that falls behind.
 */
const WORK_ITEMS_IN_FLIGHT = 512;

/**
 * Joins a worker group on a topic of work items: a member takes a share of the
 * partitions and keeps taking items while earlier ones run (a pipelined consumption), so
 * a slow item (a page held until its deadline) holds up no other item, of its partition or
 * another; a partition's offset is committed up to its first item not done, so the items
 * of a member that dies are done again by another after the rebalance (at least once).
 * Items are independent: each is tried on its own (handleAlone), so an item whose work
 * keeps failing is answered as failed and committed with the others of its batch, which
 * are done once, not again.
 */
export function consumeWorkQueue(eventLog: EventLog, o: WorkQueueOptions): Promise<Consumption> {
  const poison: PoisonPolicy = { settle: (m, error) => o.failed(m.event, error) };
  return eventLog.consume({
    groupId: o.groupId,
    topics: [o.topic],
    partitionsConcurrently: eventLog.partitionCount(o.topic),
    pipeline: { maxEventsInFlight: WORK_ITEMS_IN_FLIGHT },
    poison,
    handler: async (batch) => {
      const done = await Promise.allSettled(batch.events.map((e) => o.limiter.run(() => handleAlone(o.groupId, e, () => o.work(e.event), poison))));
      // Only an item that could not be settled fails the batch, once every item has finished.
      const unsettled = done.find((d) => d.status === 'rejected');
      if (unsettled) throw unsettled.reason;
    },
  });
}
