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
