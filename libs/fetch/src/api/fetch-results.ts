import { Inject, Injectable, Logger } from '@nestjs/common';
import { FETCH_COMPLETED, FETCH_REQUESTS_TOPIC, FETCH_RESULTS_TOPIC, FetchCompleted, fetchEventProblem, RENDER_REQUESTS_TOPIC } from '@crawlhub/contracts';
import { AwaitedResults, EVENT_LOG, EventLog } from '@crawlhub/eventlog';

const log = new Logger('FetchResults');

/** The results this API process waits for, by request id (group `fetch-api-<uuid>` on `fetch-results`). */
@Injectable()
export class FetchResults extends AwaitedResults<FetchCompleted> {
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
}
