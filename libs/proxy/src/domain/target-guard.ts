import { isIP } from 'node:net';
import { ProxyError } from './proxy-errors';

/** Normalises a host name: lowercase, no trailing dot, IPv6 literals without brackets. */
export function normalHost(host: string): string {
  const h = host.trim().toLowerCase().replace(/\.$/, '');
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

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

function v4(address: string): number[] | null {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  return m ? m.slice(1).map(Number) : null;
}

/** Private, loopback, link-local, unspecified, CGNAT or multicast: what the SSRF guard refuses. */
export function isPrivateAddress(address: string): boolean {
  let a = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) a = mapped[1];
  const o = v4(a);
  if (o) {
    const [x, y] = o;
    return x === 0 || x === 10 || x === 127 || (x === 169 && y === 254) || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168) || (x === 100 && y >= 64 && y <= 127) || x >= 224;
  }
  if (a === '::' || a === '::1') return true;
  return /^(fe[89ab][0-9a-f]|f[cd][0-9a-f]{2}|ff[0-9a-f]{2}):/.test(a);
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
    if (!this.options.allowPrivateTargets && isPrivateAddress(address)) throw new ProxyError('domain_forbidden');
  }
}
