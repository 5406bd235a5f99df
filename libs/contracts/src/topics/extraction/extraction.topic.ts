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

export type ExtractionPageType = 'article' | 'product';

export const EXTRACTION_REQUESTED = 'extraction.requested';
export interface ExtractionRequested {
  /** The query id; also the event key. */
  id: string;
  /** The batch (random UUID): the queries of one API call. */
  batch: string;
  /** The API key id (`key-…`) the query is accounted to. */
  user: string;
  /** An http(s) URL. */
  url: string;
  pageType: ExtractionPageType;
  /** Whether the article's HTML (articleBodyRaw) is wanted. */
  articleBodyRaw: boolean;
  /** ms since the epoch: the query's timeout; a worker skips the query after it. */
  deadline: number;
}

export const EXTRACTION_COMPLETED = 'extraction.completed';
export interface ExtractionCompleted {
  /** The query's id. */
  id: string;
  batch: string;
  user: string;
  /** Which worker did it (`<host>:<pid>`), for the audit trail. */
  worker: string;
  pageType: ExtractionPageType;
  /** The article or product (the engine's output), or null with `error`. */
  result: Record<string, unknown> | null;
  /** The query-level error string of the API (e.g. `Downloader error: http404`), or null. */
  error: string | null;
  /** Whether the query counts toward usage (the original's non-billable errors do not). */
  billable: boolean;
  /** Time spent downloading and extracting, ms. */
  downloadMs: number;
  extractMs: number;
}

const QUERY_ID = /^\d{13}-[0-9a-f]{16}$/;
const BATCH = /^[0-9a-f-]{36}$/;
const USER = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Why an event of these topics is malformed, or null: workers and the API skip (and report) malformed events. */
export function extractionEventProblem(e: { type: string; key: string; data: unknown }): string | null {
  const d = e.data as Record<string, unknown> | null;
  if (typeof d !== 'object' || d === null) return 'data is not an object';
  if (typeof d.id !== 'string' || !QUERY_ID.test(d.id)) return 'bad id';
  if (e.key !== d.id) return 'the key is not the query id';
  if (typeof d.batch !== 'string' || !BATCH.test(d.batch)) return 'bad batch';
  if (typeof d.user !== 'string' || !USER.test(d.user)) return 'bad user';
  if (d.pageType !== 'article' && d.pageType !== 'product') return 'bad pageType';
  switch (e.type) {
    case EXTRACTION_REQUESTED:
      if (typeof d.url !== 'string' || !/^https?:\/\//i.test(d.url)) return 'bad url';
      if (typeof d.articleBodyRaw !== 'boolean') return 'bad articleBodyRaw';
      if (!Number.isSafeInteger(d.deadline)) return 'bad deadline';
      return null;
    case EXTRACTION_COMPLETED: {
      const hasResult = typeof d.result === 'object' && d.result !== null && !Array.isArray(d.result);
      const hasError = typeof d.error === 'string' && d.error !== '';
      if (hasResult === hasError || (!hasResult && d.result !== null) || (!hasError && d.error !== null)) return 'not exactly one of result and error';
      if (typeof d.billable !== 'boolean') return 'bad billable';
      if (!Number.isFinite(d.downloadMs) || !Number.isFinite(d.extractMs)) return 'bad timings';
      return null;
    }
    default:
      return `unknown type ${e.type}`;
  }
}
