// eslint-disable-next-line no-restricted-syntax -- names this process's own consumer group, never in an event, a view or an answer.
import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@crawlhub/contracts';
import type { ConsumedBatch, Consumption, EventLog } from './event-log.port';

/** How long an API process waits at start for its results consumer to own every partition. */
const ASSIGNMENT_WAIT_MS = 60_000;

export interface AwaitedResultsOptions {
  /** Topics created at start: the results topic and the work topics its API appends to. */
  topics: string[];
  topic: string;
  /** The result event's type; others on the topic are ignored. */
  type: string;
  /** Names the process's consumer group, `<groupPrefix>-<uuid>`. */
  groupPrefix: string;
  /** Why a result event is malformed, or null; malformed results are skipped and reported. */
  problem: (e: EventEnvelope) => string | null;
  onMalformed: (e: EventEnvelope, problem: string) => void;
}

/**
 * The data of the first event of type `type` keyed `key`, typed T by the caller. An API's
 * results class extends it with its options; NestJS calls the lifecycle methods.
 *
 * How an API process receives the results it waits for, keyed by the event key: it
 * consumes the whole results topic with a consumer group of its own that starts at the
 * end, so every API process sees every result from its start on and picks the ones it
 * waits for; the others are dropped at once. The first result of a key wins (work done
 * twice after a takeover gives two).
 */
export class AwaitedResults<T> {
  private readonly waiting = new Map<string, (done: T | null) => void>();
  private consumption: Consumption | null = null;

  constructor(private readonly eventLog: EventLog, private readonly o: AwaitedResultsOptions) {}

  /** Results this process is waiting for now. */
  get pending(): number {
    return this.waiting.size;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.eventLog.ensureTopics(this.o.topics);
    this.consumption = await this.eventLog.consume({ groupId: `${this.o.groupPrefix}-${randomUUID()}`, topics: [this.o.topic], fromBeginning: false, handler: async (b) => this.deliver(b) });
    // Kafka assigns partitions after the group is joined: results appended before would be missed.
    const partitions = this.eventLog.partitionCount(this.o.topic);
    const until = performance.now() + ASSIGNMENT_WAIT_MS;
    while ((this.consumption.assignment()[this.o.topic]?.length ?? 0) < partitions && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumption?.stop();
  }

  /**
   * Waits for the result keyed `key` for at most `timeoutMs` (null: none came). Call it
   * before appending the work, so that a fast result cannot pass unseen.
   */
  expect(key: string, timeoutMs: number): { result: Promise<T | null>; cancel(): void } {
    let timer: NodeJS.Timeout | undefined;
    const result = new Promise<T | null>((resolve) => {
      const settle = (done: T | null) => {
        clearTimeout(timer);
        this.waiting.delete(key);
        resolve(done);
      };
      this.waiting.set(key, settle);
      timer = setTimeout(() => settle(null), timeoutMs);
    });
    return { result, cancel: () => this.waiting.get(key)?.(null) };
  }

  private deliver(batch: ConsumedBatch): void {
    for (const { event } of batch.events) {
      const waiter = this.waiting.get(event.key);
      if (waiter === undefined || event.type !== this.o.type) continue;
      const problem = this.o.problem(event);
      if (problem !== null) this.o.onMalformed(event, problem);
      else waiter(event.data as T);
    }
  }
}
