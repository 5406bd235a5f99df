import { ApiError, ApiErrorFilter } from '@crawlhub/http';
import { ExtractionRequestError } from '../domain/extraction-queries';

/**
 * Problem types keep the original's URIs: clients compare them literally (ae-client's
 * ACCOUNT_DISABLED_ERROR_TYPE), and the spec promises they never change.
 */
export const PROBLEM_TYPE_BASE = 'http://errors.xod.scrapinghub.com/';

/** A request-level error of the extraction API (RFC 7807), with its type slug and extra members. */
export class ExtractionProblem extends ApiError {
  constructor(status: number, readonly slug: string, title: string, readonly extra: Record<string, unknown> = {}, readonly headers: Record<string, string> = {}) {
    super(status, title);
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
 * anything unexpected is a 500 without a body, as the spec allows when no description is possible.
 */
export function extractionProblemFilter(): ApiErrorFilter {
  return new ApiErrorFilter('extract', (reply, e) => {
    // The one route answers only POST: another method finds no route, and is told so.
    const status = e.status === 404 && EXTRACT_PATH.test(reply.request.url) ? 405 : e.status;
    const problem = e instanceof ExtractionProblem ? e : SLUG_OF_STATUS[status] ? new ExtractionProblem(status, SLUG_OF_STATUS[status][0], SLUG_OF_STATUS[status][1]) : null;
    reply.status(problem?.status ?? status);
    if (problem === null) return void reply.send();
    if (problem.status === 401) reply.header('www-authenticate', 'Basic realm="crawlhub"');
    for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
    void reply
      .header('content-type', 'application/problem+json')
      // A Buffer: Fastify would append a charset to a string's content type.
      .send(Buffer.from(JSON.stringify({ type: `${PROBLEM_TYPE_BASE}${problem.slug}.html`, title: problem.message, status: problem.status, ...problem.extra })));
  }).register((e) => (e instanceof ExtractionRequestError ? new ExtractionProblem(e.status, e.slug, e.message) : null));
}
