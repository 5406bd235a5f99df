import { isIP } from 'node:net';
import { PRIVATE_TARGETS_REFUSED } from '@crawlhub/config';
import { canonicalAddress, parseTargetHost, TargetPolicy } from '@crawlhub/net';
import { errorCodeOf, ProxyError } from './proxy-errors';

/** Whether `host` is `domain` or one of its subdomains. */
export function inDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * How a host name is answered without DNS (RFC 6761 special-use names, the configured
 * static hosts): an address, `nxdomain`, or null (ask DNS).
 */
export function answerWithoutDns(name: string, staticHosts: Record<string, string>): { address: string } | 'nxdomain' | null {
  const fixed = staticHosts[name];
  if (fixed !== undefined) return { address: fixed };
  if (name === 'localhost' || name.endsWith('.localhost')) return { address: '127.0.0.1' };
  if (name === 'invalid' || name.endsWith('.invalid') || name === 'test' || name.endsWith('.test')) return 'nxdomain';
  return null;
}

/** A target that passed the guard. */
export interface CheckedTarget {
  /** The canonical host (an address, or a name): what TLS, bans, throttling and cookies go by. */
  host: string;
  /** The address the connection goes to: the one checked, never resolved again. */
  address: string;
}

export interface TargetGuardOptions {
  denyDomains: string[];
  staticHosts: Record<string, string>;
  policy: TargetPolicy;
}

/** Every address of a name, as the resolver answers them. */
export type LookupAll = (name: string) => Promise<string[]>;

/**
 * The proxy's SSRF guard and deny-list (docs/proxy.md "SSRF rules"). A target is parsed
 * into its canonical host first (every spelling of an address is the same address), a name
 * is resolved once and every address it has is checked, and the connection goes to the
 * address checked. Every request runs it, each one inside a CONNECT tunnel included.
 */
export class TargetGuard {
  private readonly denyDomains: string[];
  private readonly staticHosts: Record<string, string>;
  /** raw target host -> its canonical spelling (null: no host). Parsing it is a WHATWG URL parse per request. */
  private readonly canonicalHosts = new Map<string, string | null>();
  /** canonical address -> whether the policy allows it. */
  private readonly allowedAddresses = new Map<string, boolean>();

  constructor(
    private readonly options: TargetGuardOptions,
    private readonly lookupAll: LookupAll,
  ) {
    // Deny-list entries and static answers in canonical form too (an IP literal listed as 0x7f.1 is 127.0.0.1).
    this.denyDomains = options.denyDomains.map((d) => canonicalHost(d) ?? d);
    this.staticHosts = {};
    for (const [name, address] of Object.entries(options.staticHosts)) this.staticHosts[canonicalHost(name) ?? name] = canonicalAddress(address) ?? address;
  }

  /** The canonical spelling of a target host (see parseTargetHost); 540 bad_header when `raw` is no host. */
  canonical(raw: string): string {
    let host = this.canonicalHosts.get(raw);
    if (host === undefined) host = remember(this.canonicalHosts, raw, canonicalHost(raw));
    if (host === null) throw new ProxyError('bad_header', 'no valid target host');
    return host;
  }

  /**
   * The whole check of a target: its canonical host, 523 domain_forbidden for a denied
   * domain or a refused address, 502 nxdomain for a special-use name; a name is resolved
   * once and every one of its addresses checked. Answers the address to connect to.
   */
  async check(raw: string): Promise<CheckedTarget> {
    const known = this.checkWithoutDns(raw);
    if (known !== null) return known;
    const host = this.canonical(raw);
    const answers = await this.lookupAll(host).catch((e: unknown) => {
      throw new ProxyError(errorCodeOf(e) === 'nxdomain' ? 'nxdomain' : errorCodeOf(e));
    });
    const addresses = answers.map((a) => canonicalAddress(a));
    if (addresses.length === 0) throw new ProxyError('nxdomain');
    // One refused address refuses the name: a name that points at both sides of the fence is not a website.
    for (const a of addresses) this.checkAddress(a);
    return { host, address: addresses[0]! };
  }

  /**
   * The check of a target that needs no DNS (an address, a special-use or static name),
   * answered synchronously (the forwarder awaits nothing then); null: a name to resolve
   * (`check`). Throws as `check` does.
   */
  checkWithoutDns(raw: string): CheckedTarget | null {
    const host = this.canonical(raw);
    if (this.denyDomains.length > 0 && this.denyDomains.some((d) => inDomain(host, d))) throw new ProxyError('domain_forbidden');
    if (isIP(host)) {
      this.checkAddress(host);
      return { host, address: host };
    }
    const answered = answerWithoutDns(host, this.staticHosts);
    if (answered === 'nxdomain') throw new ProxyError('nxdomain');
    if (answered === null) return null;
    const address = canonicalAddress(answered.address);
    this.checkAddress(address);
    return { host, address: address! };
  }

  private checkAddress(address: string | null): void {
    if (address === null) throw new ProxyError('domain_forbidden', PRIVATE_TARGETS_REFUSED);
    let allowed = this.allowedAddresses.get(address);
    if (allowed === undefined) allowed = remember(this.allowedAddresses, address, this.options.policy.allows(address));
    if (!allowed) throw new ProxyError('domain_forbidden', PRIVATE_TARGETS_REFUSED);
  }
}

/** Entries of each of the guard's memos (canonical hosts, address decisions) before it starts over. */
const MEMO_ENTRIES = 4096;

/**
 * Keeps `value` for `key` in a memo of at most MEMO_ENTRIES (emptied when full: the hosts a
 * proxy sees in a moment are few, and a memo that never evicts would grow with every target).
 * Both memos hold pure functions of their key (the guard's policy never changes), so a hit
 * answers what the parse would: every request still gets the whole check.
 */
function remember<V>(memo: Map<string, V>, key: string, value: V): V {
  if (memo.size >= MEMO_ENTRIES) memo.clear();
  memo.set(key, value);
  return value;
}

function canonicalHost(raw: string): string | null {
  const parsed = parseTargetHost(raw);
  return parsed === null ? null : parsed.kind === 'address' ? parsed.address : parsed.name;
}
