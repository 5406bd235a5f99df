import { z } from 'zod';
import { defineTopic, eventProblemIn, HTTP_URL, MILLIS, USER_ID } from '../../topic-contract';

/**
 * The fetch API's work (libs/fetch). Three topics, all keyed by the request id (random),
 * so requests spread evenly over the partitions and a request and its result share a
 * partition number:
 * - `fetch-requests`: plain fetches, taken by the plain fetchers (group `fetch-workers`);
 * - `render-requests`: rendered fetches, taken by the renderers (group `render-workers`),
 *   so plain fetchers and renderers scale independently;
 * - `fetch-results`: one `fetch.completed` per request done (at least once: a request
 *   taken over after a worker died may be done twice; the API takes the first).
 * No API key travels in these events: the request names the user by key id, and the
 * worker mints a short-lived proxy token for it.
 */
export const FETCH_REQUESTS_TOPIC = 'fetch-requests';
export const RENDER_REQUESTS_TOPIC = 'render-requests';
export const FETCH_RESULTS_TOPIC = 'fetch-results';

export const FETCH_REQUESTED = 'fetch.requested';
/** Random (UUID); also the event key. */
const FETCH_ID = z.string().regex(/^[0-9a-f-]{8,64}$/);
const FETCH_REQUESTED_DATA = z.object({
  id: FETCH_ID,
  /** The API key id (`key-…`) the fetch is accounted to. */
  user: USER_ID,
  url: HTTP_URL,
  method: z.string().regex(/^[A-Z]{1,20}$/),
  /** The client's headers for the website, in order. */
  headers: z.array(z.tuple([z.string(), z.string()])),
  /** The request body, base64; null: none. */
  body: z.string().nullable(),
  /** Country code or `auto` (passed to the proxy as X-Proxy-Region). */
  region: z.string().nullable(),
  /** `desktop` or `mobile` (the proxy's browser profile); null: the proxy's default. */
  device: z.enum(['desktop', 'mobile']).nullable(),
  /** `<project>/<spider>/<job>` (X-Proxy-JobId); null: none. */
  jobId: z.string().nullable(),
  render: z.boolean(),
  screenshot: z.boolean(),
  /** ms since the epoch: a worker skips the request after it (the API has answered 503 by then). */
  deadline: MILLIS,
});
export type FetchRequested = z.infer<typeof FETCH_REQUESTED_DATA>;

export const FETCH_COMPLETED = 'fetch.completed';
const FETCH_COMPLETED_DATA = z.object({
  /** The request's id. */
  id: FETCH_ID,
  /** Which worker did it (`<host>:<pid>`), for the audit trail. */
  worker: z.string(),
  url: HTTP_URL,
  /** The website's status; on a failure, the proxy's error status (e.g. 504 for timeout). */
  originalStatus: z.number().int(),
  /** The website's response headers (names as received; repeated ones joined with ", "); `{}` on a failure. */
  headers: z.record(z.string(), z.string()),
  proxyStatus: z.enum(['success', 'ban', 'fail']),
  /** The proxy error code and message on ban and fail; with the proxy's Retry-After (seconds) when it gave one. */
  error: z.object({ code: z.string(), message: z.string(), retryAfterSeconds: z.number().optional() }).nullable(),
  /** The response body, base64 (bounded by the fetch response limit, so the event is too). */
  body: z.string(),
  /** A PNG, base64, when a screenshot was asked for and rendered. */
  screenshot: z.string().nullable(),
});
export type FetchCompleted = z.infer<typeof FETCH_COMPLETED_DATA>;

export const FETCH_CONTRACT = defineTopic(
  [FETCH_REQUESTS_TOPIC, RENDER_REQUESTS_TOPIC, FETCH_RESULTS_TOPIC],
  { [FETCH_REQUESTED]: FETCH_REQUESTED_DATA, [FETCH_COMPLETED]: FETCH_COMPLETED_DATA },
  (_type, d) => d.id,
);

/** Why an event of these topics is malformed, or null: workers and the API skip (and report) malformed events. */
export function fetchEventProblem(e: { type: string; key: string; data: unknown }): string | null {
  return eventProblemIn(FETCH_CONTRACT, e);
}
