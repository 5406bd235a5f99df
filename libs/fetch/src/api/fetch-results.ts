import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { FETCH_COMPLETED, FETCH_REQUESTS_TOPIC, FETCH_RESULTS_TOPIC, FetchCompleted, fetchEventProblem, RENDER_REQUESTS_TOPIC } from '@crawlhub/contracts';
import { ConsumedBatch, Consumption, EVENT_LOG, EventLog } from '@crawlhub/eventlog';

/** How long the API waits at start for its results consumer to own every partition. */
const ASSIGNMENT_WAIT_MS = 60_000;

/**
 * How an API process receives the results it waits for: it consumes the whole results
 * topic with a consumer group of its own (`fetch-api-<uuid>`) that starts at the end, so
 * every API process sees every result from its start on and picks the ones it waits for;
 * the others are dropped at once. The first result of a request wins (a request done
 * twice after a takeover gives two).
 */
@Injectable()
export class FetchResults implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('FetchResults');
  private readonly waiting = new Map<string, (done: FetchCompleted | null) => void>();
  private consumption: Consumption | null = null;

  constructor(@Inject(EVENT_LOG) private readonly eventLog: EventLog) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.eventLog.ensureTopics([FETCH_REQUESTS_TOPIC, RENDER_REQUESTS_TOPIC, FETCH_RESULTS_TOPIC]);
    this.consumption = await this.eventLog.consume({ groupId: `fetch-api-${randomUUID()}`, topics: [FETCH_RESULTS_TOPIC], fromBeginning: false, handler: async (b) => this.deliver(b) });
    // Kafka assigns partitions after the group is joined: results appended before would be missed.
    const partitions = this.eventLog.partitionCount(FETCH_RESULTS_TOPIC);
    const until = Date.now() + ASSIGNMENT_WAIT_MS;
    while ((this.consumption.assignment()[FETCH_RESULTS_TOPIC]?.length ?? 0) < partitions && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumption?.stop();
  }

  /**
   * Waits for the result of request `id` for at most `timeoutMs` (null: none came). Call it
   * before appending the request, so that a fast result cannot pass unseen.
   */
  expect(id: string, timeoutMs: number): { result: Promise<FetchCompleted | null>; cancel(): void } {
    let timer: NodeJS.Timeout | undefined;
    const result = new Promise<FetchCompleted | null>((resolve) => {
      const settle = (done: FetchCompleted | null) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(done);
      };
      this.waiting.set(id, settle);
      timer = setTimeout(() => settle(null), timeoutMs);
    });
    return { result, cancel: () => this.waiting.get(id)?.(null) };
  }

  private deliver(batch: ConsumedBatch): void {
    for (const { event } of batch.events) {
      const waiter = this.waiting.get(event.key);
      if (waiter === undefined || event.type !== FETCH_COMPLETED) continue;
      const problem = fetchEventProblem(event);
      if (problem !== null) this.log.warn(`skipped malformed fetch result ${event.id}: ${problem}`);
      else waiter(event.data as FetchCompleted);
    }
  }
}
