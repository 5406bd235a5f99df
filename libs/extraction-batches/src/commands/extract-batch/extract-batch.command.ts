import { Actor, Clock, Ids } from '@crawlhub/contracts';
import { AcceptedQuery, acceptQueries } from '../../domain/extraction-queries';

/** One element of the response array (spec "Query result"). */
export interface QueryResult {
  query: { id: string; domain: string; userQuery: Record<string, unknown> };
  article?: Record<string, unknown>;
  product?: Record<string, unknown>;
  error?: string;
}

/**
 * Extract a batch of 1–100 queries for a user: POST /v1/extract. The body is checked here
 * (acceptQueries: an ExtractionProblem 400 for a malformed batch; a malformed query gets
 * its own error result), so every caller gets the API's checks.
 */
export class ExtractBatchCommand {
  readonly queries: AcceptedQuery[];

  /** `stamps`: the clock and ids that date and name the queries. */
  constructor(readonly user: string, readonly actor: Actor, body: Buffer, stamps: { clock: Clock; ids: Ids }) {
    this.queries = acceptQueries(body, stamps);
  }
}
