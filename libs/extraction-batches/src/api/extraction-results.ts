import { Inject, Injectable, Logger } from '@nestjs/common';
import { EXTRACTION_COMPLETED, EXTRACTION_REQUESTS_TOPIC, EXTRACTION_RESULTS_TOPIC, ExtractionCompleted, extractionEventProblem } from '@crawlhub/contracts';
import { AwaitedResults, EVENT_LOG, EventLog } from '@crawlhub/eventlog';

const log = new Logger('ExtractionResults');

/** The query results this API process waits for, by query id (group `extraction-api-<uuid>` on `extraction-results`). */
@Injectable()
export class ExtractionResults extends AwaitedResults<ExtractionCompleted> {
  constructor(@Inject(EVENT_LOG) eventLog: EventLog) {
    super(eventLog, {
      topics: [EXTRACTION_REQUESTS_TOPIC, EXTRACTION_RESULTS_TOPIC],
      topic: EXTRACTION_RESULTS_TOPIC,
      type: EXTRACTION_COMPLETED,
      groupPrefix: 'extraction-api',
      problem: extractionEventProblem,
      onMalformed: (e, problem) => log.warn(`skipped malformed extraction result ${e.id}: ${problem}`),
    });
  }
}
