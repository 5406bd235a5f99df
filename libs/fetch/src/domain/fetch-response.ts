import { isUtf8 } from 'node:buffer';
import type { FetchCompleted } from '@crawlhub/contracts';

/**
 * The fetch response object (spec "Fetch response"). `proxy_status` is the spec's name;
 * the original's clients read `crawlera_status` and `crawlera_error` (compat-notes §4), so
 * both are sent with the same values (`proxy_error` is our twin of `crawlera_error`).
 */
export interface FetchResponseBody {
  url: string;
  original_status: number;
  headers: Record<string, string>;
  proxy_status: FetchCompleted['proxyStatus'];
  crawlera_status: FetchCompleted['proxyStatus'];
  proxy_error?: string;
  crawlera_error?: string;
  body_encoding: 'plain' | 'base64';
  body: string;
  screenshot?: string;
}

const TEXT_TYPES = /^(text\/[^;]+|application\/(json|xml|javascript|ecmascript|x-javascript|xhtml\+xml|rss\+xml|atom\+xml|ld\+json|x-www-form-urlencoded)|[a-z]+\/[^;]+\+(xml|json))\s*(;|$)/i;
const UTF8_CHARSETS = ['utf-8', 'utf8', 'us-ascii', 'ascii'];

function headerOf(headers: Record<string, string>, name: string): string | undefined {
  const found = Object.keys(headers).find((h) => h.toLowerCase() === name);
  return found === undefined ? undefined : headers[found];
}

/**
 * Whether a body goes out plain: a text content type whose charset (if named) is UTF-8,
 * and bytes that are valid UTF-8. Anything else (images, PDFs, Latin-1 pages) is base64,
 * so the client always gets the exact bytes back.
 */
export function isPlainText(contentType: string | undefined, body: Buffer): boolean {
  if (!contentType || !TEXT_TYPES.test(contentType.trim())) return false;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
  if (charset !== undefined && !UTF8_CHARSETS.includes(charset)) return false;
  return isUtf8(body);
}

export function fetchResponseOf(done: FetchCompleted): FetchResponseBody {
  const bytes = Buffer.from(done.body, 'base64');
  // A failure's body is the proxy's message: text.
  const plain = done.error !== null || isPlainText(headerOf(done.headers, 'content-type'), bytes);
  return {
    url: done.url,
    original_status: done.originalStatus,
    headers: done.headers,
    proxy_status: done.proxyStatus,
    crawlera_status: done.proxyStatus,
    ...(done.error ? { proxy_error: done.error.code, crawlera_error: done.error.code } : {}),
    body_encoding: plain ? 'plain' : 'base64',
    body: plain ? bytes.toString('utf8') : done.body,
    ...(done.screenshot !== null ? { screenshot: done.screenshot } : {}),
  };
}
