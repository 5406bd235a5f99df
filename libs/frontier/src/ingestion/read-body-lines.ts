import { FrontierInputError } from '../domain/requests';

/**
 * Reads a JSON-lines body as it streams in and returns what `take` makes of each
 * non-blank line (given the parsed value and its 1-based line number). The whole body
 * is refused (413) as soon as it grows past `maxBytes`, a malformed line with 400 naming
 * it: the caller applies nothing unless the whole body was good.
 */
export async function readBodyLines<T>(
  body: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  maxBytes: number,
  take: (value: unknown, lineNo: number) => T,
): Promise<T[]> {
  const out: T[] = [];
  let carry: Buffer | null = null;
  let total = 0;
  let lineNo = 0;
  const line = (buf: Buffer, start: number, end: number) => {
    lineNo++;
    // Skip blank lines (and a \r before \n) without decoding them.
    let s = start;
    while (s < end && (buf[s] === 32 || buf[s] === 9 || buf[s] === 13)) s++;
    if (s === end) return;
    const text = buf.toString('utf8', start, end);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new FrontierInputError(400, `Error parsing data, line ${lineNo}: invalid JSON (${(e as Error).message})`);
    }
    out.push(take(value, lineNo));
  };
  for await (const piece of body) {
    let buf = typeof piece === 'string' ? Buffer.from(piece) : piece;
    total += buf.length;
    if (total > maxBytes) throw new FrontierInputError(413, `Request Entity Too Large: a frontier POST is limited to ${maxBytes} bytes; send fewer requests per POST`);
    if (carry) {
      buf = Buffer.concat([carry, buf]);
      carry = null;
    }
    let start = 0;
    let nl = buf.indexOf(10, start);
    while (nl >= 0) {
      line(buf, start, nl);
      start = nl + 1;
      nl = buf.indexOf(10, start);
    }
    if (start < buf.length) carry = buf.subarray(start);
  }
  if (carry) line(carry, 0, carry.length);
  return out;
}
