import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, Clock, currentCorrelationId, EXTRACTION_REQUESTED, EXTRACTION_REQUESTS_TOPIC, ExtractionCompleted, ExtractionRequested, IDS, Ids } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { RETRY_AFTER_SECONDS } from '@crawlhub/http';
import { EventWriter } from '@crawlhub/views';
import { AcceptedQuery } from '../../domain/extraction-queries';
import { ExtractionProblem } from '../../api/extraction-problem';
import { ExtractionResults } from '../../api/extraction-results';
import { QueriesInFlight } from '../../api/queries-in-flight';
import { ExtractBatchCommand, QueryResult } from './extract-batch.command';

/** A result may arrive a little after the deadline the worker checked. */
const RESULT_GRACE_MS = 1_000;

/**
 * Every fetchable query of the batch is appended to the log for the extraction workers,
 * in one append (all or none); resolves when every query is done or has timed out
 * (EXTRACT_QUERY_TIMEOUT_MS), one result per query, in the batch's order. The user's
 * queries in flight are bounded (QueriesInFlight: 429 beyond).
 */
@CommandHandler(ExtractBatchCommand)
export class ExtractBatchHandler implements ICommandHandler<ExtractBatchCommand, QueryResult[]> {
  private readonly log = new Logger('ExtractBatchHandler');

  constructor(
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDS) private readonly ids: Ids,
    private readonly writer: EventWriter,
    private readonly results: ExtractionResults,
    private readonly queriesInFlight: QueriesInFlight,
  ) {}

  async execute({ user, actor, queries }: ExtractBatchCommand): Promise<QueryResult[]> {
    const release = this.queriesInFlight.take(user, queries.length);
    try {
      return await this.run(queries, user, actor);
    } finally {
      release();
    }
  }

  private async run(queries: AcceptedQuery[], user: string, actor: ExtractBatchCommand['actor']): Promise<QueryResult[]> {
    const timeoutMs = this.config.extraction.queryTimeoutMs;
    const deadline = this.clock.now() + timeoutMs;
    const batch = this.ids.uuid();
    const queued = queries.filter((q) => q.error === null);
    const waiting = new Map(queued.map((q) => [q.id, this.results.expect(q.id, timeoutMs + RESULT_GRACE_MS)]));
    const events = queued.map((q) => {
      const data: ExtractionRequested = { id: q.id, batch, user, url: q.url, pageType: q.pageType, articleBodyRaw: q.articleBodyRaw, deadline };
      // One batch is one request: its events carry the request's correlation id (X-Request-Id), else the batch's.
      return this.writer.createEvent({ type: EXTRACTION_REQUESTED, key: q.id, data, actor, correlationId: currentCorrelationId() ?? batch });
    });
    if (events.length > 0) {
      try {
        await this.writer.append(EXTRACTION_REQUESTS_TOPIC, events);
      } catch (e) {
        for (const w of waiting.values()) w.cancel();
        this.log.error(`a batch could not be queued: ${(e as Error).message}`);
        throw new ExtractionProblem(503, 'service-unavailable', 'The queries could not be queued (event log unavailable); retry', RETRY_AFTER_SECONDS);
      }
    }
    return Promise.all(queries.map(async (q) => resultOf(q, q.error ?? (await waiting.get(q.id)!.result))));
  }
}

function resultOf(q: AcceptedQuery, outcome: string | ExtractionCompleted | null): QueryResult {
  const query = { id: q.id, domain: q.domain, userQuery: q.userQuery };
  if (outcome === null) return { query, error: 'query timed out' };
  if (typeof outcome === 'string') return { query, error: outcome };
  if (outcome.error !== null) return { query, error: outcome.error };
  return { query, [q.pageType]: outcome.result! };
}
