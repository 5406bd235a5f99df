/** Normalises a host name: lowercase, no trailing dot, IPv6 literals without brackets. */
export function normalHost(host: string): string {
  const h = host.trim().toLowerCase().replace(/\.$/, '');
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

function v4(address: string): number[] | null {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  return m ? m.slice(1).map(Number) : null;
}

/** Private, loopback, link-local, unspecified, CGNAT or multicast: what the SSRF guards refuse. */
export function isPrivateAddress(address: string): boolean {
  let a = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) a = mapped[1];
  // The same IPv4-mapped address in hex, as URL parsers write it (::ffff:7f00:1).
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a);
  if (mappedHex) {
    const [hi, lo] = [parseInt(mappedHex[1], 16), parseInt(mappedHex[2], 16)];
    a = [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  const o = v4(a);
  if (o) {
    const [x, y] = o;
    return x === 0 || x === 10 || x === 127 || (x === 169 && y === 254) || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168) || (x === 100 && y >= 64 && y <= 127) || x >= 224;
  }
  if (a === '::' || a === '::1') return true;
  return /^(fe[89ab][0-9a-f]|f[cd][0-9a-f]{2}|ff[0-9a-f]{2}):/.test(a);
}
