import { isIP } from 'node:net';
import { PRIVATE_TARGETS_REFUSED } from '@crawlhub/config';
import { isPrivateAddress } from '@crawlhub/net';
import { ProxyError } from './proxy-errors';

/** Whether `host` is `domain` or one of its subdomains. */
export function inDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * How a host name is answered without DNS (RFC 6761 special-use names, the configured
 * static hosts, IP literals): an address, `nxdomain`, or null (ask DNS).
 */
export function answerWithoutDns(host: string, staticHosts: Record<string, string>): { address: string } | 'nxdomain' | null {
  if (isIP(host)) return { address: host };
  const fixed = staticHosts[host];
  if (fixed !== undefined) return { address: fixed };
  if (host === 'localhost' || host.endsWith('.localhost')) return { address: '127.0.0.1' };
  if (host === 'invalid' || host.endsWith('.invalid') || host === 'test' || host.endsWith('.test')) return 'nxdomain';
  return null;
}

/** The deny-list and the SSRF guard, before and after name resolution. */
export class TargetGuard {
  constructor(private readonly options: { denyDomains: string[]; allowPrivateTargets: boolean }) {}

  /** Refuses a denied domain (523 domain_forbidden) before anything is resolved. */
  checkName(host: string): void {
    if (this.options.denyDomains.some((d) => inDomain(host, d))) throw new ProxyError('domain_forbidden');
  }

  /** Refuses private, loopback and link-local addresses unless allowed. */
  checkAddress(address: string): void {
    if (!this.options.allowPrivateTargets && isPrivateAddress(address)) throw new ProxyError('domain_forbidden', PRIVATE_TARGETS_REFUSED);
  }
}
