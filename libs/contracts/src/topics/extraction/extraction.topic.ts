import { z } from 'zod';
import { defineTopic, eventProblemIn, HTTP_URL, JSON_OBJECT, MILLIS, USER_ID } from '../../topic-contract';

/**
 * The extraction API's work (libs/extraction-batches). Both topics are keyed by the query
 * id (`<epoch ms>-<16 hex>`), so the queries of one batch spread over the partitions and
 * the workers, and a query and its result share a partition number:
 * - `extraction-requests`: one `extraction.requested` per query of a batch, all appended
 *   together by the API; taken by the extraction workers (group `extraction-workers`);
 * - `extraction-results`: one `extraction.completed` per query done (at least once: a
 *   query taken over after a worker died may be done twice; the API takes the first).
 *   Usage is accounted from these: one event per billable query.
 * No API key travels in these events: the query names the user by key id, and the
 * worker fetches with a short-lived proxy token for it.
 */
export const EXTRACTION_REQUESTS_TOPIC = 'extraction-requests';
export const EXTRACTION_RESULTS_TOPIC = 'extraction-results';

const PAGE_TYPE = z.enum(['article', 'product']);
export type ExtractionPageType = z.infer<typeof PAGE_TYPE>;
const QUERY_COMMON = z.object({
  /** The query id (`<epoch ms>-<16 hex>`); also the event key. */
  id: z.string().regex(/^\d{13}-[0-9a-f]{16}$/),
  /** The batch (random UUID): the queries of one API call. */
  batch: z.string().regex(/^[0-9a-f-]{36}$/),
  /** The API key id (`key-…`) the query is accounted to. */
  user: USER_ID,
  pageType: PAGE_TYPE,
});

export const EXTRACTION_REQUESTED = 'extraction.requested';
const EXTRACTION_REQUESTED_DATA = QUERY_COMMON.extend({
  url: HTTP_URL,
  /** Whether the article's HTML (articleBodyRaw) is wanted. */
  articleBodyRaw: z.boolean(),
  /** ms since the epoch: the query's timeout; a worker skips the query after it. */
  deadline: MILLIS,
});
export type ExtractionRequested = z.infer<typeof EXTRACTION_REQUESTED_DATA>;

export const EXTRACTION_COMPLETED = 'extraction.completed';
const EXTRACTION_COMPLETED_DATA = QUERY_COMMON.extend({
  /** Which worker did it (`<host>:<pid>`), for the audit trail. */
  worker: z.string(),
  /** The article or product (the engine's output), or null with `error`. */
  result: JSON_OBJECT.nullable(),
  /** The query-level error string of the API (e.g. `Downloader error: http404`), or null. */
  error: z.string().min(1).nullable(),
  /** Whether the query counts toward usage (the original's non-billable errors do not). */
  billable: z.boolean(),
  /** Time spent downloading and extracting, ms. */
  downloadMs: z.number().nonnegative(),
  extractMs: z.number().nonnegative(),
}).refine((d) => (d.result === null) !== (d.error === null), 'not exactly one of result and error');
export type ExtractionCompleted = z.infer<typeof EXTRACTION_COMPLETED_DATA>;

export const EXTRACTION_CONTRACT = defineTopic(
  [EXTRACTION_REQUESTS_TOPIC, EXTRACTION_RESULTS_TOPIC],
  { [EXTRACTION_REQUESTED]: EXTRACTION_REQUESTED_DATA, [EXTRACTION_COMPLETED]: EXTRACTION_COMPLETED_DATA },
  (_type, d) => d.id,
);

/** Why an event of these topics is malformed, or null: workers and the API skip (and report) malformed events. */
export function extractionEventProblem(e: { type: string; key: string; data: unknown }): string | null {
  return eventProblemIn(EXTRACTION_CONTRACT, e);
}
