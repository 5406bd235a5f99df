import { ApiError, ApiErrorFilter, RETRY_AFTER_SECONDS } from '@crawlhub/http';
import { FetchInputError } from '../domain/fetch-params';

/** An error of the fetch API itself, with its code (`{"error": code, "message": ...}`). */
export class FetchApiError extends ApiError {
  constructor(status: number, readonly code: string, message: string, retryAfterSeconds: number | null = null) {
    super(status, message, retryAfterSeconds);
  }

  /** 503 with Retry-After: the request could not be queued, or no worker answered in time (workers restarting). */
  static retryLater(code: string, message: string): FetchApiError {
    return new FetchApiError(503, code, message, RETRY_AFTER_SECONDS);
  }
}

const CODE_OF_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'body_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  431: 'headers_too_large',
  503: 'unavailable',
};

/**
 * Errors of the fetch API as JSON `{"error": "<code>", "message": "..."}` (bad input,
 * credentials, no answer in time); a 401 also asks for Basic credentials. A fetch that
 * failed is not an error of the API: it is a 200 with the fetch response object.
 */
export function fetchErrorFilter(): ApiErrorFilter {
  return new ApiErrorFilter('fetch', (e) => {
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    if (e.status === 401) headers['www-authenticate'] = 'Basic realm="crawlhub"';
    const code = e instanceof FetchApiError ? e.code : CODE_OF_STATUS[e.status] ?? (e.status < 500 ? 'bad_request' : 'internal_error');
    return { status: e.status, headers, body: JSON.stringify({ error: code, message: e.message }) };
  }).register((e) => (e instanceof FetchInputError ? new FetchApiError(400, e.code, e.message) : null));
}
