import type { EventEnvelope } from '@crawlhub/contracts';
import type { Consumption, EventLog } from './event-log.port';

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
}

/**
 * Joins a worker group on a topic of work items: a member takes a share of the
 * partitions, works on every partition at once (a slow item holds up only its own
 * partition's commit), and commits a batch only when all of its items are done, so the
 * items of a member that dies are done again by another after the rebalance (at least once).
 */
export function consumeWorkQueue(eventLog: EventLog, o: WorkQueueOptions): Promise<Consumption> {
  return eventLog.consume({
    groupId: o.groupId,
    topics: [o.topic],
    partitionsConcurrently: eventLog.partitionCount(o.topic),
    handler: async (batch) => {
      await Promise.all(batch.events.map((e) => o.limiter.run(() => o.work(e.event))));
    },
  });
}
