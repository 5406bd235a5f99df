import { isIP } from 'node:net';
import { isPrivateAddress, normalHost } from '@crawlhub/net';

/** Schemes a rendered page may load besides http(s): in-page data only, never files or browser internals. */
const INLINE_SCHEMES = new Set(['data:', 'blob:', 'about:']);

/**
 * Whether the browser may request `url`: http(s) and in-page schemes, and, unless private
 * targets are allowed, no private/loopback/link-local literal and no `localhost`. Other
 * names are not resolved here: with a proxy, the proxy resolves and guards them; direct
 * renders have only this literal check (a name that resolves to a private address passes).
 */
export function mayRequest(url: string, allowPrivateTargets: boolean): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (INLINE_SCHEMES.has(parsed.protocol)) return true;
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol)) return false;
  if (allowPrivateTargets) return true;
  const host = normalHost(parsed.hostname);
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  return !(isIP(host) && isPrivateAddress(host));
}
