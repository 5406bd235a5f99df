/** Why a text is not a URL crawlhub can fetch. */
export type WebUrlProblem = 'malformed' | 'not_http' | 'no_host';

export type WebUrlCheck = { ok: true; url: URL } | { ok: false; problem: WebUrlProblem; protocol?: string };

/**
 * Parses a URL given by a client the way a browser does (WHATWG URL): the host in its
 * IDNA form (`日本.example` → `xn--wgv71a.example`), the path, query and fragment
 * percent-encoded as UTF-8, so `url.href` is what goes on the wire and in the log
 * (Node's HTTP client refuses a path with characters above U+00FF). Only http(s) URLs
 * with a host are fetchable. Every API that takes a URL to fetch checks it here.
 */
export function checkWebUrl(text: string): WebUrlCheck {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, problem: 'malformed' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, problem: 'not_http', protocol: url.protocol.slice(0, -1) };
  if (!url.hostname) return { ok: false, problem: 'no_host' };
  return { ok: true, url };
}
