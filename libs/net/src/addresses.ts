import * as ipaddr from 'ipaddr.js';

/**
 * A target host in its one canonical spelling: an IP address (IPv4 dotted decimal, IPv6 as
 * RFC 5952 writes it, no zone id) or a name (ASCII lowercase, IDNA applied, no trailing dot).
 * Everything that checks or reaches a target works on this form, never on what a client wrote.
 */
export type TargetHost = { kind: 'address'; address: string } | { kind: 'name'; name: string };

/** Characters that end or hide a host in a URL: a host containing one is refused rather than guessed at. */
const NOT_IN_A_HOST = /[\s/\\?#@]/;

/**
 * Parses a host as written in a URL, a CONNECT authority, a Host header or a config value
 * (`[::1]`, `::1`, `0:0:0:0:0:0:0:1`, `127.1`, `0x7f.0.0.1`, `2130706433`, `Example.COM.`…)
 * into its canonical form; null when it is not a host. The parser is the WHATWG URL host
 * parser (the one of browsers and of Node's URL): every IPv4 notation they accept, percent
 * escapes included, ends as the address they would reach, and IPv6 is read as the kernel
 * reads it (`::127.0.0.1` is ::7f00:1, not the IPv4-mapped ::ffff:7f00:1 that ipaddr.js would
 * make of it). A zone id (`fe80::1%eth0`, `%25eth0` in URLs) is dropped: the address alone
 * is checked and reached.
 */
export function parseTargetHost(raw: string): TargetHost | null {
  let host = raw.trim();
  if (host === '' || NOT_IN_A_HOST.test(host)) return null;
  const bracketed = host.startsWith('[') && host.endsWith(']');
  if (bracketed) host = host.slice(1, -1);
  // Only IPv6 literals are bracketed or hold a colon (a port is never part of the host given here).
  if (bracketed || host.includes(':')) {
    const hostname = urlHostname(`[${host.replace(/%.*$/, '')}]`);
    return hostname?.startsWith('[') ? { kind: 'address', address: hostname.slice(1, -1) } : null;
  }
  const hostname = urlHostname(host);
  if (hostname === null) return null;
  if (ipaddr.IPv4.isValidFourPartDecimal(hostname)) return { kind: 'address', address: hostname };
  const name = hostname.replace(/\.$/, '');
  return name === '' || name.startsWith('.') ? null : { kind: 'name', name };
}

function urlHostname(host: string): string | null {
  try {
    return new URL(`http://${host}/`).hostname;
  } catch {
    return null;
  }
}

/** The canonical spelling of an IP address (as a resolver answers it), or null when it is none. */
export function canonicalAddress(address: string): string | null {
  const parsed = parseTargetHost(address);
  return parsed?.kind === 'address' ? parsed.address : null;
}

/** ipaddr.js range names of addresses IANA lists as globally reachable. */
const GLOBAL_IPV4 = new Set(['unicast', 'as112', 'amt']);
const GLOBAL_IPV6 = new Set(['unicast', 'as112v6', 'amt']);
/** The only IPv6 block allocated for global unicast; everything outside it (::/96 IPv4-compatible included) is not a website. */
const GLOBAL_UNICAST_IPV6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
/** NAT64's well-known prefix (RFC 6052), whose last 32 bits are the IPv4 address reached; 64:ff9b:1::/48 is local use. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];

function ipv4Of(bytes: number[]): ipaddr.IPv4 {
  return ipaddr.fromByteArray(bytes) as ipaddr.IPv4;
}

/**
 * The IPv4 addresses that an IPv6 address stands for or is delivered to: IPv4-mapped
 * (::ffff:a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d) are that address, NAT64
 * (64:ff9b::a.b.c.d) reaches it through a gateway, 6to4 (2002:AABB:CCDD::) through a relay to
 * its router, Teredo (2001::/32) through its server to its client. null: none.
 */
function embeddedIPv4(a: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const b = a.toByteArray();
  switch (a.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [ipv4Of(b.slice(12))];
    case 'rfc6052':
      return a.match(NAT64_WELL_KNOWN) ? [ipv4Of(b.slice(12))] : null;
    case '6to4':
      return [ipv4Of(b.slice(2, 6))];
    case 'teredo':
      // The server's address as is, the client's with every bit flipped (RFC 4380).
      return [ipv4Of(b.slice(4, 8)), ipv4Of(b.slice(12).map((x) => x ^ 0xff))];
    default:
      return null;
  }
}

/**
 * Whether a canonical address is a public Internet address: IPv4 outside every special range
 * (private, loopback, link-local, CGNAT, multicast, reserved, documentation, benchmarking…);
 * IPv6 in 2000::/3 outside its special ranges; and IPv6 forms that carry an IPv4 address
 * (mapped, translated, NAT64, 6to4, Teredo) only when every IPv4 address they carry is public.
 * Anything that is not an address is not public.
 */
export function isPublicAddress(address: string): boolean {
  const canonical = canonicalAddress(address);
  if (canonical === null) return false;
  const a = ipaddr.parse(canonical);
  if (a.kind() === 'ipv4') return GLOBAL_IPV4.has(a.range());
  const v6 = a as ipaddr.IPv6;
  const carried = embeddedIPv4(v6);
  if (carried !== null) return carried.every((v4) => GLOBAL_IPV4.has(v4.range()));
  return v6.match(GLOBAL_UNICAST_IPV6) && GLOBAL_IPV6.has(v6.range());
}

/** Who may be reached besides public addresses: every address (`allowPrivate`), or the listed addresses and CIDR ranges. */
export interface TargetPolicyOptions {
  allowPrivate: boolean;
  /** Addresses (`10.1.2.3`, `::1`) and ranges (`10.8.0.0/16`, `fd00::/8`) reachable although not public. */
  allowed: string[];
}

/** An address or a CIDR range of the allow-list, in canonical form; null when it is neither. */
function rangeOf(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  const [written, bits, ...more] = entry.split('/');
  const address = more.length === 0 ? canonicalAddress(written) : null;
  if (address === null) return null;
  if (bits === undefined) return [ipaddr.parse(address), address.includes(':') ? 128 : 32];
  const cidr = `${address}/${bits}`;
  return /^\d{1,3}$/.test(bits) && ipaddr.isValidCIDR(cidr) ? ipaddr.parseCIDR(cidr) : null;
}

/** Whether `entry` is an address or a CIDR range that TargetPolicy takes (for config validation). */
export function isAddressOrRange(entry: string): boolean {
  return rangeOf(entry) !== null;
}

/**
 * The SSRF rule of every path that reaches a website (proxy, fetch, render, extraction):
 * an address is reachable when it is public, listed, or private targets are allowed.
 */
export class TargetPolicy {
  private readonly ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][];

  constructor(private readonly options: TargetPolicyOptions) {
    this.ranges = options.allowed.map((entry) => {
      const range = rangeOf(entry);
      if (range === null) throw new Error(`not an address or a CIDR range: ${entry}`);
      return range;
    });
  }

  /** The platform's rule, from its config (ALLOW_PRIVATE_TARGETS, ALLOW_TARGET_ADDRESSES). */
  static of(config: { allowPrivateTargets: boolean; allowTargetAddresses: string[] }): TargetPolicy {
    return new TargetPolicy({ allowPrivate: config.allowPrivateTargets, allowed: config.allowTargetAddresses });
  }

  get allowsPrivate(): boolean {
    return this.options.allowPrivate;
  }

  /** Whether `address` (any spelling; see parseTargetHost) may be reached. */
  allows(address: string): boolean {
    if (this.options.allowPrivate) return true;
    const canonical = canonicalAddress(address);
    if (canonical === null) return false;
    const parsed = ipaddr.parse(canonical);
    // An IPv4-mapped address is the IPv4 address itself: a listed 127.0.0.5 also allows ::ffff:127.0.0.5.
    const a = parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
    if (this.ranges.some(([net, bits]) => net.kind() === a.kind() && a.match(net, bits))) return true;
    return isPublicAddress(canonical);
  }
}
