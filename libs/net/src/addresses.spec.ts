import { canonicalAddress, isAddressOrRange, isPublicAddress, parseTargetHost, TargetPolicy } from './addresses';

/** Every spelling of a host, as a client may write it, and the one canonical form it must end as. */
const SPELLINGS: [string, string][] = [
  // IPv4 in every notation the URL parsers of browsers and Node accept
  ['127.0.0.1', '127.0.0.1'],
  ['127.1', '127.0.0.1'],
  ['127.0.1', '127.0.0.1'],
  ['0x7f.0.0.1', '127.0.0.1'],
  ['0x7f.1', '127.0.0.1'],
  ['0177.0.0.1', '127.0.0.1'],
  ['0177.1', '127.0.0.1'],
  ['127.000.000.001', '127.0.0.1'],
  ['2130706433', '127.0.0.1'],
  ['0x7f000001', '127.0.0.1'],
  ['017700000001', '127.0.0.1'],
  ['127.0.0.1.', '127.0.0.1'],
  ['%31%32%37.0.0.1', '127.0.0.1'],
  ['0', '0.0.0.0'],
  ['0x0', '0.0.0.0'],
  ['10.1', '10.0.0.1'],
  ['3232235777', '192.168.1.1'],
  ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254'],
  ['2852039166', '169.254.169.254'],
  // IPv6 in every notation, bracketed (URLs, CONNECT) or not (resolvers, config)
  ['[::1]', '::1'],
  ['::1', '::1'],
  ['[0:0:0:0:0:0:0:1]', '::1'],
  ['[0000::1]', '::1'],
  ['[::0001]', '::1'],
  ['[0000:0000:0000:0000:0000:0000:0000:0001]', '::1'],
  ['[0:0:0:0:0:0:0:0]', '::'],
  ['[::]', '::'],
  ['[::1%lo]', '::1'],
  ['[::1%25lo]', '::1'],
  ['[fe80::1%eth0]', 'fe80::1'],
  ['[FE80::0:1]', 'fe80::1'],
  // IPv4-mapped, -translated and -compatible forms of loopback
  ['[0:0:0:0:0:ffff:7f00:1]', '::ffff:7f00:1'],
  ['[0:0:0:0:0:ffff:127.0.0.1]', '::ffff:7f00:1'],
  ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
  ['[::FFFF:7F00:0001]', '::ffff:7f00:1'],
  ['[::ffff:0:127.0.0.1]', '::ffff:0:7f00:1'],
  ['[::127.0.0.1]', '::7f00:1'],
  ['[64:ff9b::127.0.0.1]', '64:ff9b::7f00:1'],
  ['[2001:DB8::1]', '2001:db8::1'],
  ['[2606:4700:4700:0000:0000:0000:0000:1111]', '2606:4700:4700::1111'],
];

const NAMES: [string, string][] = [
  ['Example.COM', 'example.com'],
  ['example.com.', 'example.com'],
  ['LOCALHOST.', 'localhost'],
  ['Bücher.example', 'xn--bcher-kva.example'],
  ['127.0.0.1x', '127.0.0.1x'],
  ['1e2', '1e2'],
];

describe('parseTargetHost', () => {
  it.each(SPELLINGS)('%s is the address %s', (raw, canonical) => {
    expect(parseTargetHost(raw)).toEqual({ kind: 'address', address: canonical });
  });

  it.each(NAMES)('%s is the name %s', (raw, canonical) => {
    expect(parseTargetHost(raw)).toEqual({ kind: 'name', name: canonical });
  });

  it.each(['', ' ', '[::1', '[1::2::3]', '[::ffff:127.1]', '256.0.0.1', '1.2.3.4.5', 'evil.example@127.0.0.1', '127.0.0.1/x', 'a b', 'x?y', 'x#y', 'a\\b', '[not-v6]', '.', '.example.com'])('%j is not a host', (raw) => {
    expect(parseTargetHost(raw)).toBeNull();
  });

  it('gives the canonical form of a resolver\'s answer, null for a name', () => {
    expect(canonicalAddress('::ffff:127.0.0.1')).toBe('::ffff:7f00:1');
    expect(canonicalAddress('93.184.216.34')).toBe('93.184.216.34');
    expect(canonicalAddress('example.com')).toBeNull();
  });
});

/** Addresses (canonical or not: each goes through parseTargetHost first) that must never be reached unless allowed. */
const REFUSED = [
  ...SPELLINGS.filter(([, c]) => !['2606:4700:4700::1111'].includes(c)).map(([raw]) => raw),
  '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '100.64.0.1', '169.254.169.254', '224.0.0.1', '255.255.255.255', '240.0.0.1',
  '192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', '192.0.0.8', '192.88.99.1',
  '[fd00::1]', '[fc00::1]', '[fec0::1]', '[ff02::1]', '[100::1]', '[2001:db8::1]', '[2001:2::1]', '[3fff::1]', '[5f00::1]',
  // IPv4-compatible (deprecated) of a public address, and unallocated IPv6: not websites
  '[::8.8.8.8]', '[4000::1]',
  // IPv6 forms that carry a private IPv4 address
  '[::ffff:10.0.0.1]', '[::ffff:c0a8:101]', '[::ffff:169.254.169.254]', '[::ffff:0:10.0.0.1]',
  '[64:ff9b::10.0.0.1]', '[64:ff9b::a9fe:a9fe]', '[64:ff9b:1::8.8.8.8]',
  '[2002:7f00:1::1]', '[2002:a00:1::1]', '[2002:c0a8:101::]',
  // Teredo: client 127.0.0.1 (bits flipped: 80ff:fffe), or server 10.0.0.1
  '[2001:0:4136:e378:8000:63bf:80ff:fffe]', '[2001:0:a00:1:8000:63bf:f7f7:f7f7]',
];

const PUBLIC = [
  '8.8.8.8', '93.184.216.34', '172.32.0.1', '172.15.255.255', '100.128.0.1', '192.169.0.1', '1.1.1.1', '0x08.0x08.0x08.0x08', '134744072', '192.175.48.1',
  '[2606:4700:4700::1111]', '[2a00:1450:4001:82b::200e]', '[2001:4860:4860::8888]',
  '[::ffff:8.8.8.8]', '[::ffff:808:808]', '[64:ff9b::8.8.8.8]', '[2002:808:808::1]', '[2001:0:4136:e378:8000:63bf:f7f7:f7f7]',
];

describe('isPublicAddress and TargetPolicy', () => {
  const guarded = new TargetPolicy({ allowPrivate: false, allowed: [] });
  const address = (raw: string) => {
    const parsed = parseTargetHost(raw);
    if (parsed?.kind !== 'address') throw new Error(`${raw} is not an address`);
    return parsed.address;
  };

  it.each(REFUSED)('%s is refused', (raw) => {
    expect(isPublicAddress(address(raw))).toBe(false);
    expect(guarded.allows(address(raw))).toBe(false);
  });

  it.each(PUBLIC)('%s is allowed', (raw) => {
    expect(isPublicAddress(address(raw))).toBe(true);
    expect(guarded.allows(address(raw))).toBe(true);
  });

  it('allows everything with allowPrivate, and nothing that is not an address', () => {
    const open = new TargetPolicy({ allowPrivate: true, allowed: [] });
    for (const raw of REFUSED) expect(open.allows(address(raw))).toBe(true);
    expect(guarded.allows('localhost')).toBe(false);
    expect(isPublicAddress('example.com')).toBe(false);
  });

  it('allows listed addresses and ranges in every spelling, IPv4-mapped forms of listed IPv4 included, and nothing next to them', () => {
    const listed = new TargetPolicy({ allowPrivate: false, allowed: ['127.0.0.5', '10.8.0.0/16', '::1'] });
    for (const raw of ['127.0.0.5', '0x7f.0.0.5', '2130706437', '[::ffff:127.0.0.5]', '10.8.200.1', '[::1]', '[0:0:0:0:0:0:0:1]', '8.8.8.8']) expect([raw, listed.allows(address(raw))]).toEqual([raw, true]);
    for (const raw of ['127.0.0.1', '127.0.0.6', '10.9.0.1', '[::]', '[::ffff:127.0.0.1]', '[::127.0.0.5]']) expect([raw, listed.allows(address(raw))]).toEqual([raw, false]);
  });

  it('knows which config entries are addresses or ranges', () => {
    expect(['10.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8'].every(isAddressOrRange)).toBe(true);
    expect(['example.com', '10.0.0.0/33', '10.0.0.0/8/1', '10.0.0.0/x', ''].some(isAddressOrRange)).toBe(false);
  });
});
