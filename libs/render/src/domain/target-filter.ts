import { parseTargetHost, TargetPolicy } from '@crawlhub/net';

/** Schemes a rendered page may load besides http(s): in-page data only, never files or browser internals. */
const INLINE_SCHEMES = new Set(['data:', 'blob:', 'about:']);

/**
 * Whether the browser may request `url`: http(s), ws(s) and in-page schemes; an IP literal
 * only when `targets` allows its canonical address (the same rule as the proxy's, whatever
 * the spelling), `localhost` names only when it allows 127.0.0.1. Other names are not
 * resolved here: the browser goes through crawlhub's proxy, which resolves and guards them
 * (a direct render, without a proxy, has only this literal check).
 */
export function mayRequest(url: string, targets: TargetPolicy): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (INLINE_SCHEMES.has(parsed.protocol)) return true;
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol)) return false;
  const host = parseTargetHost(parsed.hostname);
  if (host === null) return false;
  if (host.kind === 'address') return targets.allows(host.address);
  return !(host.name === 'localhost' || host.name.endsWith('.localhost')) || targets.allows('127.0.0.1');
}

/**
 * DevTools Fetch URL patterns (`*` any characters) that match every http(s) request
 * mayRequest could refuse under `targets`, as Chromium spells request URLs (scheme and
 * host lower case, an IPv4 literal in dotted decimal whatever its spelling, an IPv6 one in
 * brackets): hosts that start with a digit, a bracket or a dot, `localhost` and its
 * subdomains, and URLs with user info. Only these requests pause for the check; a pattern
 * may also match a safe URL (a digit-led name, `localhost` in a path), which is then let
 * through by mayRequest. When `targets` allows every address, only the hosts
 * mayRequest cannot parse (led by a dot) are left to check.
 */
export function guardedUrlPatterns(targets: TargetPolicy): string[] {
  const hostStarts = targets.allowsPrivate ? ['.'] : ['.', '[', ...'0123456789', 'localhost', '*.localhost', '*@'];
  return ['http', 'https'].flatMap((scheme) => hostStarts.map((start) => `${scheme}://${start}*`));
}
