/**
 * Ways to write a loopback (or unspecified) address in a URL host or a CONNECT target. Every
 * one names this machine, so a guard that lets one through reaches the canary (the test's
 * loopback service, or the proxy's only exit, a loopback upstream proxy); no spelling here
 * makes anything leave the machine or asks DNS (decimal, octal and hex forms are numeric to
 * the C resolver too). `items: [2]`: the notations issue 14 item 2 names; the others the guard
 * already knows and must keep knowing.
 */
export interface Spelling {
  /** As written in a URL's host (IPv6 in brackets). */
  host: string;
  label: string;
  items?: number[];
  /** Only in a CONNECT target (a zone id has no URL form). */
  connectOnly?: boolean;
}

const ITEM2 = [2];

export const LOOPBACK_SPELLINGS: Spelling[] = [
  { host: '127.0.0.1', label: 'IPv4 loopback' },
  { host: '127.255.255.254', label: 'IPv4 loopback, end of 127/8' },
  { host: 'localhost', label: 'localhost' },
  { host: 'LocalHost', label: 'localhost, mixed case' },
  { host: 'canary.localhost', label: 'a name under .localhost' },
  { host: '0.0.0.0', label: 'IPv4 unspecified (connects to this host)' },
  { host: '[::1]', label: 'IPv6 loopback' },
  { host: '[::]', label: 'IPv6 unspecified' },
  { host: '[::ffff:127.0.0.1]', label: 'IPv4-mapped loopback, dotted' },
  { host: '127.1', label: 'IPv4 loopback, two parts', items: ITEM2 },
  { host: '127.0.1', label: 'IPv4 loopback, three parts', items: ITEM2 },
  { host: '2130706433', label: 'IPv4 loopback as one decimal number', items: ITEM2 },
  { host: '0x7f000001', label: 'IPv4 loopback as one hex number', items: ITEM2 },
  { host: '0x7f.0.0.1', label: 'IPv4 loopback, hex first part', items: ITEM2 },
  { host: '0177.0.0.1', label: 'IPv4 loopback, octal first part', items: ITEM2 },
  { host: '017700000001', label: 'IPv4 loopback as one octal number', items: ITEM2 },
  { host: '127.000.000.001', label: 'IPv4 loopback, zero-padded parts', items: ITEM2 },
  { host: '0', label: 'IPv4 unspecified as 0', items: ITEM2 },
  { host: '[0:0:0:0:0:0:0:1]', label: 'IPv6 loopback, every group written', items: ITEM2 },
  { host: '[0000::1]', label: 'IPv6 loopback, zero-padded group', items: ITEM2 },
  { host: '[::0001]', label: 'IPv6 loopback, padded last group', items: ITEM2 },
  { host: '[0:0::0:1]', label: 'IPv6 loopback, :: in the middle', items: ITEM2 },
  { host: '[0:0:0:0:0:0:0:0]', label: 'IPv6 unspecified, every group written', items: ITEM2 },
  { host: '[::ffff:7f00:1]', label: 'IPv4-mapped loopback, hex', items: ITEM2 },
  { host: '[0:0:0:0:0:ffff:7f00:1]', label: 'IPv4-mapped loopback, every group written', items: ITEM2 },
  { host: '[0:0:0:0:0:ffff:127.0.0.1]', label: 'IPv4-mapped loopback, groups and dotted', items: ITEM2 },
  { host: '[::FFFF:7F00:0001]', label: 'IPv4-mapped loopback, upper case and padded', items: ITEM2 },
  { host: '[::127.0.0.1]', label: 'IPv4-compatible loopback, dotted', items: ITEM2 },
  { host: '[::7f00:1]', label: 'IPv4-compatible loopback, hex', items: ITEM2 },
  { host: '[64:ff9b::127.0.0.1]', label: 'NAT64 (64:ff9b::/96) of 127.0.0.1, dotted', items: ITEM2 },
  { host: '[64:ff9b::7f00:1]', label: 'NAT64 (64:ff9b::/96) of 127.0.0.1, hex', items: ITEM2 },
  { host: '[::1%lo]', label: 'IPv6 loopback with a zone id', items: ITEM2, connectOnly: true },
  { host: '[::ffff:127.0.0.1%eth0]', label: 'IPv4-mapped loopback with a zone id', items: ITEM2, connectOnly: true },
];

/** The spellings of the list that have a URL form. */
export const URL_SPELLINGS = LOOPBACK_SPELLINGS.filter((s) => !s.connectOnly);
