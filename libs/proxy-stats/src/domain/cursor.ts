/**
 * The `after` token of GET /stats: the original's looks like base64 of Python's
 * `float.hex()` of a Unix time in seconds (`MHgxLjcwNWYzMmMwMDAwMDBwKzMw` is
 * `0x1.705f32c000000p+30`, 2018-12-17T16:20:00Z). We make ours the same way, from the
 * start (`time_gte`) of the last entry of the page: the next page holds the entries
 * after it. Clients treat it as opaque.
 */
export function encodeCursor(ms: number): string {
  return Buffer.from(floatHex(ms / 1000), 'latin1').toString('base64');
}

/** The time (ms) a token names, or null when it is not a token of ours. */
export function decodeCursor(token: string): number | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return null;
  const seconds = parseFloatHex(Buffer.from(token, 'base64').toString('latin1'));
  if (seconds === null || seconds < 0 || seconds > 1e11) return null;
  return Math.round(seconds * 1000);
}

/** Python's float.hex() of a finite non-negative number: `0x1.<13 hex digits>p<exp>`. */
export function floatHex(x: number): string {
  if (!Number.isFinite(x) || x < 0) throw new RangeError(`floatHex: ${x}`);
  if (x === 0) return '0x0.0p+0';
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const mantissa = ((hi & 0xfffff).toString(16).padStart(5, '0') + lo.toString(16).padStart(8, '0'));
  const exp = biased === 0 ? -1022 : biased - 1023;
  return `0x${biased === 0 ? 0 : 1}.${mantissa}p${exp >= 0 ? '+' : ''}${exp}`;
}

const HEX_FLOAT = /^0x([01])\.([0-9a-f]{1,13})p([+-]?\d{1,4})$/i;

export function parseFloatHex(text: string): number | null {
  const m = HEX_FLOAT.exec(text);
  if (!m) return null;
  const fraction = parseInt(m[2], 16) / 16 ** m[2].length;
  return (Number(m[1]) + fraction) * 2 ** Number(m[3]);
}
