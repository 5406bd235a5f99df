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
export interface FetchRequested {
  /** Random (UUID); also the event key. */
  id: string;
  /** The API key id (`key-…`) the fetch is accounted to. */
  user: string;
  /** An http(s) URL. */
  url: string;
  method: string;
  /** The client's headers for the website, in order. */
  headers: [string, string][];
  /** The request body, base64; null: none. */
  body: string | null;
  /** Country code or `auto` (passed to the proxy as X-Proxy-Region). */
  region: string | null;
  /** `desktop` or `mobile` (the proxy's browser profile); null: the proxy's default. */
  device: 'desktop' | 'mobile' | null;
  /** `<project>/<spider>/<job>` (X-Proxy-JobId); null: none. */
  jobId: string | null;
  render: boolean;
  screenshot: boolean;
  /** ms since the epoch: a worker skips the request after it (the API has answered 503 by then). */
  deadline: number;
}

export const FETCH_COMPLETED = 'fetch.completed';
export interface FetchCompleted {
  /** The request's id. */
  id: string;
  /** Which worker did it (`<host>:<pid>`), for the audit trail. */
  worker: string;
  url: string;
  /** The website's status; on a failure, the proxy's error status (e.g. 504 for timeout). */
  originalStatus: number;
  /** The website's response headers (names as received; repeated ones joined with ", "); `{}` on a failure. */
  headers: Record<string, string>;
  proxyStatus: 'success' | 'ban' | 'fail';
  /** The proxy error code and message on ban and fail; with the proxy's Retry-After (seconds) when it gave one. */
  error: { code: string; message: string; retryAfterSeconds?: number } | null;
  /** The response body, base64 (bounded by the fetch response limit, so the event is too). */
  body: string;
  /** A PNG, base64, when a screenshot was asked for and rendered. */
  screenshot: string | null;
}

const ID = /^[0-9a-f-]{8,64}$/;
const USER = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Why an event of these topics is malformed, or null: workers and the API skip (and report) malformed events. */
export function fetchEventProblem(e: { type: string; key: string; data: unknown }): string | null {
  const d = e.data as Record<string, unknown> | null;
  if (typeof d !== 'object' || d === null) return 'data is not an object';
  if (typeof d.id !== 'string' || !ID.test(d.id)) return 'bad id';
  if (e.key !== d.id) return 'the key is not the request id';
  if (typeof d.url !== 'string' || !/^https?:\/\//i.test(d.url)) return 'bad url';
  switch (e.type) {
    case FETCH_REQUESTED:
      if (typeof d.user !== 'string' || !USER.test(d.user)) return 'bad user';
      if (typeof d.method !== 'string' || !/^[A-Z]{1,20}$/.test(d.method)) return 'bad method';
      if (!Array.isArray(d.headers) || !d.headers.every((h) => Array.isArray(h) && h.length === 2 && h.every((x) => typeof x === 'string'))) return 'bad headers';
      if (d.body !== null && typeof d.body !== 'string') return 'bad body';
      if (typeof d.render !== 'boolean' || typeof d.screenshot !== 'boolean') return 'bad render or screenshot';
      if (!Number.isSafeInteger(d.deadline)) return 'bad deadline';
      return null;
    case FETCH_COMPLETED:
      if (!['success', 'ban', 'fail'].includes(d.proxyStatus as string)) return 'bad proxyStatus';
      if (!Number.isInteger(d.originalStatus)) return 'bad originalStatus';
      if (typeof d.body !== 'string') return 'bad body';
      if (typeof d.headers !== 'object' || d.headers === null) return 'bad headers';
      return null;
    default:
      return `unknown type ${e.type}`;
  }
}
