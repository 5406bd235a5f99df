import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { FETCH_COMPLETED, FETCH_REQUESTS_TOPIC, FETCH_RESULTS_TOPIC, FetchCompleted, fetchEventProblem, RENDER_REQUESTS_TOPIC } from '@crawlhub/contracts';
import { AwaitedResults, EVENT_LOG, EventLog } from '@crawlhub/eventlog';

/** The results this API process waits for (AwaitedResults over `fetch-results`, group `fetch-api-<uuid>`). */
@Injectable()
export class FetchResults implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('FetchResults');
  private readonly results: AwaitedResults<FetchCompleted>;

  constructor(@Inject(EVENT_LOG) private readonly eventLog: EventLog) {
    this.results = new AwaitedResults(eventLog, {
      topic: FETCH_RESULTS_TOPIC,
      type: FETCH_COMPLETED,
      groupPrefix: 'fetch-api',
      problem: fetchEventProblem,
      onMalformed: (e, problem) => this.log.warn(`skipped malformed fetch result ${e.id}: ${problem}`),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.eventLog.ensureTopics([FETCH_REQUESTS_TOPIC, RENDER_REQUESTS_TOPIC, FETCH_RESULTS_TOPIC]);
    await this.results.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.results.stop();
  }

  /** Waits for the result of request `id` (null: none within `timeoutMs`); call it before appending the request. */
  expect(id: string, timeoutMs: number): { result: Promise<FetchCompleted | null>; cancel(): void } {
    return this.results.expect(id, timeoutMs);
  }
}
