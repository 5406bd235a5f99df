import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { FETCH_COMPLETED, FETCH_REQUESTS_TOPIC, FETCH_RESULTS_TOPIC, FetchCompleted, fetchEventProblem, RENDER_REQUESTS_TOPIC } from '@crawlhub/contracts';
import { AwaitedResults, EVENT_LOG, EventLog } from '@crawlhub/eventlog';
import { fetchApiInFlight } from '@crawlhub/ops';

const log = new Logger('FetchResults');

/** The results this API process waits for, by request id (group `fetch-api-<uuid>` on `fetch-results`). */
@Injectable()
export class FetchResults extends AwaitedResults<FetchCompleted> implements OnModuleDestroy {
  /** Takes this process's waiting requests out of /metrics (at shutdown). */
  private readonly unlistMetrics = fetchApiInFlight.add(() => [{ labels: {}, value: this.pending }]);

  constructor(@Inject(EVENT_LOG) eventLog: EventLog) {
    super(eventLog, {
      topics: [FETCH_REQUESTS_TOPIC, RENDER_REQUESTS_TOPIC, FETCH_RESULTS_TOPIC],
      topic: FETCH_RESULTS_TOPIC,
      type: FETCH_COMPLETED,
      groupPrefix: 'fetch-api',
      problem: fetchEventProblem,
      onMalformed: (e, problem) => log.warn(`skipped malformed fetch result ${e.id}: ${problem}`),
    });
  }

  onModuleDestroy(): void {
    this.unlistMetrics();
  }
}
