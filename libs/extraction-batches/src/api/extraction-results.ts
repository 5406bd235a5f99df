import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { EXTRACTION_COMPLETED, EXTRACTION_REQUESTS_TOPIC, EXTRACTION_RESULTS_TOPIC, ExtractionCompleted, extractionEventProblem } from '@crawlhub/contracts';
import { AwaitedResults, EVENT_LOG, EventLog } from '@crawlhub/eventlog';

/** The query results this API process waits for (AwaitedResults over `extraction-results`, group `extraction-api-<uuid>`). */
@Injectable()
export class ExtractionResults implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('ExtractionResults');
  private readonly results: AwaitedResults<ExtractionCompleted>;

  constructor(@Inject(EVENT_LOG) private readonly eventLog: EventLog) {
    this.results = new AwaitedResults(eventLog, {
      topic: EXTRACTION_RESULTS_TOPIC,
      type: EXTRACTION_COMPLETED,
      groupPrefix: 'extraction-api',
      problem: extractionEventProblem,
      onMalformed: (e, problem) => this.log.warn(`skipped malformed extraction result ${e.id}: ${problem}`),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.eventLog.ensureTopics([EXTRACTION_REQUESTS_TOPIC, EXTRACTION_RESULTS_TOPIC]);
    await this.results.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.results.stop();
  }

  /** Waits for the result of query `id` (null: none within `timeoutMs`); call it before appending the query. */
  expect(id: string, timeoutMs: number): { result: Promise<ExtractionCompleted | null>; cancel(): void } {
    return this.results.expect(id, timeoutMs);
  }
}
