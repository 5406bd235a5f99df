import type { EventStamps, ExtractionPageType, Ids } from '@crawlhub/contracts';
import { decodeUtf8, parseJson } from '@crawlhub/http';
import { checkWebUrl } from '@crawlhub/net';

/** The spec's limits (extraction-api.md "Limits"). */
export const MAX_QUERIES = 100;
export const MAX_BODY_BYTES = 128 * 1024;
export const MAX_META_BYTES = 4 * 1024;
export const MAX_URL_UTF16 = 4096;

/** Why a request cannot be processed at all: a request-level problem (its type slug, title and status). */
export class ExtractionRequestError extends Error {
  constructor(readonly status: number, readonly slug: string, title: string) {
    super(title);
  }
}

/** One query as accepted: what the client sent (echoed as userQuery), and what the workers need. */
export interface AcceptedQuery {
  /** `<epoch ms>-<16 hex>`, like the original's. */
  id: string;
  /** The URL's host, or '' when the URL cannot be parsed. */
  domain: string;
  /** The query exactly as sent (meta and fields we do not use included). */
  userQuery: Record<string, unknown>;
  /** The URL the workers fetch: normalised as a browser does (IDNA host, percent-encoded path and query). */
  url: string;
  pageType: ExtractionPageType;
  articleBodyRaw: boolean;
  /** A query-level error decided without fetching (malformed url, non-HTTP scheme, too long): no work is queued for it. */
  error: string | null;
}

/** `<time in ms>-<16 hex digits>`, like the original's. */
function newQueryId(now: number, ids: Ids): string {
  return `${now}-${ids.hex(8)}`;
}

const PAGE_TYPES: readonly string[] = ['article', 'product'];

/**
 * The URL as the workers fetch it (normalised as a browser does: checkWebUrl), or the
 * query-level error of a URL the API refuses without fetching (non-billable, as the original's).
 */
export function checkQueryUrl(url: string): { url: string; domain: string; error: null } | { error: string } {
  if (url.length > MAX_URL_UTF16) return { error: `URL cannot be longer than ${MAX_URL_UTF16} UTF-16 characters` };
  const checked = checkWebUrl(url);
  if (!checked.ok) return { error: checked.problem === 'not_http' ? 'non-HTTP schemas are not allowed' : 'malformed url' };
  return { url: checked.url.href, domain: checked.url.hostname, error: null };
}

function queryProblem(q: unknown, i: number): string | null {
  const at = `query ${i}`;
  if (typeof q !== 'object' || q === null || Array.isArray(q)) return `${at} is not a JSON object`;
  const o = q as Record<string, unknown>;
  if (typeof o.url !== 'string') return `${at}: "url" (a string) is required`;
  if (typeof o.pageType !== 'string' || !PAGE_TYPES.includes(o.pageType)) return `${at}: "pageType" must be "article" or "product"`;
  if (o.meta !== undefined && typeof o.meta !== 'string') return `${at}: "meta" must be a string`;
  if (typeof o.meta === 'string' && Buffer.byteLength(o.meta, 'utf8') > MAX_META_BYTES) return `${at}: "meta" is longer than ${MAX_META_BYTES} bytes`;
  if (o.articleBodyRaw !== undefined && typeof o.articleBodyRaw !== 'boolean') return `${at}: "articleBodyRaw" must be true or false`;
  return null;
}

/**
 * The queries of a request body (already read, at most MAX_BODY_BYTES), or the
 * request-level problem that refuses the whole request: nothing is queued unless every
 * query is well formed. A URL that is a string but not a fetchable one is a query-level
 * error, as in the original (its other queries still run).
 */
export function acceptQueries(body: Buffer, stamps: EventStamps): AcceptedQuery[] {
  const now = stamps.clock.now();
  let text: string;
  try {
    text = decodeUtf8(body);
  } catch (e) {
    throw new ExtractionRequestError(400, 'malformed-json', `Could not parse request JSON: ${(e as Error).message}`);
  }
  if (text.trim() === '') throw new ExtractionRequestError(400, 'empty-request', 'Empty request body - should be JSON document');
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch (e) {
    throw new ExtractionRequestError(400, 'malformed-json', `Could not parse request JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new ExtractionRequestError(400, 'malformed-request', 'Unparseable request: the body must be a JSON array of queries');
  if (parsed.length > MAX_QUERIES) throw new ExtractionRequestError(413, 'queries-limit-reached', `Limit of ${MAX_QUERIES} queries per request exceeded`);
  if (parsed.length === 0) throw new ExtractionRequestError(400, 'malformed-request', 'Unparseable request: the array holds no query');
  const problem = parsed.map(queryProblem).find((p) => p !== null);
  if (problem) throw new ExtractionRequestError(400, 'malformed-request', `Unparseable request: ${problem}`);
  return (parsed as Record<string, unknown>[]).map((q) => {
    const checked = checkQueryUrl(q.url as string);
    return {
      id: newQueryId(now, stamps.ids),
      domain: checked.error === null ? checked.domain : '',
      userQuery: q,
      url: checked.error === null ? checked.url : (q.url as string),
      pageType: q.pageType as ExtractionPageType,
      articleBodyRaw: q.articleBodyRaw !== false,
      error: checked.error,
    };
  });
}
