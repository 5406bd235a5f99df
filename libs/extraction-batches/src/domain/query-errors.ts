import type { FetchCompleted } from '@crawlhub/contracts';

/** The original's errors that are not billed (ae-client `is_billable_error_msg`). */
const NOT_BILLABLE = [/malformed url/i, /URL cannot be longer than/i, /non-HTTP schemas are not allowed/i, /Extraction not permitted for this URL/i, /domain .+ is occupied, please retry in .+ seconds/i];

/** Our own query errors for the engine's failures (the original's list names none), in its style. */
export const EXTRACTION_FAILED = 'Extraction error: internal_error';
/** The page's extraction outran EXTRACT_PAGE_TIMEOUT_MS. */
export const EXTRACTION_TOO_LONG = 'Extraction error: page too complex';

export function isBillable(error: string | null): boolean {
  return error === null || !NOT_BILLABLE.some((re) => re.test(error));
}

/** Proxy errors whose original wording is a downloader error. */
const DOWNLOADER_WORDING: Record<string, string> = {
  econnreset: 'Downloader error: No response (network5)',
  socket_closed_remotely: 'Downloader error: No response (network5)',
};
/** Our codes with no twin in the original's list, named by the nearest of its codes. */
const PROXY_WORDING: Record<string, string> = {
  tls_error: 'ssl_tunnel_error',
  proxy_unreachable: 'internal_error',
  unexpected: 'internal_error',
};

/**
 * The query-level error of a download (compat-notes §5 wording: clients match these
 * strings to decide retries and billing), or null when the page can be extracted.
 * Redirects are not followed, as in the original: a 3xx is `network301`.
 */
export function downloadError(fetched: Pick<FetchCompleted, 'error' | 'originalStatus'>, domain: string): string | null {
  const e = fetched.error;
  if (e !== null) {
    if (e.code === '/limits/over-domain-limit') return `Domain ${domain} is occupied, please retry in ${e.retryAfterSeconds ?? 300} seconds`;
    return DOWNLOADER_WORDING[e.code] ?? `Proxy error: ${PROXY_WORDING[e.code] ?? e.code}`;
  }
  const status = fetched.originalStatus;
  if (status === 304) return 'Downloader error: http304';
  if (status >= 300 && status < 400) return 'Downloader error: No response (network301)';
  if (status >= 400 || status < 200) return `Downloader error: http${status}`;
  return null;
}
