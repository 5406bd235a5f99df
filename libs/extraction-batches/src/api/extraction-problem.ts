import { ApiError, ApiErrorFilter } from '@crawlhub/http';
import { ExtractionRequestError } from '../domain/extraction-queries';

/**
 * Problem types keep the original's URIs: clients compare them literally (ae-client's
 * ACCOUNT_DISABLED_ERROR_TYPE), and the spec promises they never change.
 */
export const PROBLEM_TYPE_BASE = 'http://errors.xod.scrapinghub.com/';

/**
 * A request-level error of the extraction API (RFC 7807), with its type slug and extra
 * members; one to retry later says when as the `retryAfter` member (seconds) and Retry-After.
 */
export class ExtractionProblem extends ApiError {
  constructor(status: number, readonly slug: string, title: string, retryAfterSeconds: number | null = null) {
    super(status, title, retryAfterSeconds);
  }

  get extra(): Record<string, unknown> {
    return this.retryAfterSeconds === null ? {} : { retryAfter: this.retryAfterSeconds };
  }
}

const EXTRACT_PATH = /^\/v1\/extract\/?(\?|$)/;

const SLUG_OF_STATUS: Record<number, [string, string]> = {
  401: ['unauthorized', 'Authentication token not provided or invalid'],
  404: ['unknown-uri', 'Invalid API endpoint'],
  405: ['method-not-allowed', 'Invalid HTTP method (only POST is supported)'],
  413: ['malformed-request', 'Request body too large (at most 128KB)'],
};

/**
 * Every error of the extraction API as `application/problem+json`: `{type, title, status}`
 * plus the problem's own members (a retry delay...). Errors from elsewhere (a missing
 * route, a key that does not authenticate, a body over the limit) get the matching type;
 * any other client error (a body that is not UTF-8 or not gzip, a request the HTTP parser
 * refuses) is a `malformed-request` titled with its message; anything unexpected is a 500
 * without a body, as the spec allows when no description is possible.
 */
export function extractionProblemFilter(): ApiErrorFilter {
  return new ApiErrorFilter('extract', (e, url) => {
    // The one route answers only POST: another method finds no route, and is told so.
    const status = e.status === 404 && EXTRACT_PATH.test(url) ? 405 : e.status;
    const problem = e instanceof ExtractionProblem ? e : problemOf(status, e.message);
    if (problem === null) return { status, headers: {}, body: null };
    const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
    if (problem.status === 401) headers['www-authenticate'] = 'Basic realm="crawlhub"';
    return { status: problem.status, headers, body: JSON.stringify({ type: `${PROBLEM_TYPE_BASE}${problem.slug}.html`, title: problem.message, status: problem.status, ...problem.extra }) };
  }).register((e) => (e instanceof ExtractionRequestError ? new ExtractionProblem(e.status, e.slug, e.message) : null));
}

/** The problem of an error raised outside the extraction API's own code: its type by status, or null for a server error. */
function problemOf(status: number, message: string): ExtractionProblem | null {
  const known = SLUG_OF_STATUS[status];
  if (known) return new ExtractionProblem(status, known[0], known[1]);
  return status >= 400 && status < 500 ? new ExtractionProblem(status, 'malformed-request', message) : null;
}
