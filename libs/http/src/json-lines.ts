import { JSON_NOT_COMPACT, JSON_TOO_DEEP, jsonTextFlags, TOO_DEEP } from './json-input';
import { decodeUtf8, InvalidUtf8Error } from './utf8';

/**
 * Reading a JSON-lines request body as it streams in: the convention every storage-style
 * API shares (items, collections, the frontier). `storageErrorFilter` answers an
 * IngestError with its status and message.
 */

/** A body (or one of its lines) that the API refuses: 400 malformed, 413 too large. */
export class IngestError extends Error {
  constructor(readonly status: 400 | 413, message: string) {
    super(message);
  }
}

/** A chunk of checked lines (whatever a line parser makes of them) and their size in bytes. */
export interface LineChunk<T> {
  records: T[];
  bytes: number;
}

export interface LineReaderOptions {
  maxRecordBytes: number;
  chunkBytes: number;
  /** The 413 message for a line over `maxRecordBytes` (default: naming the line). */
  tooLarge?: (lineNo: number, maxRecordBytes: number) => string;
  /** A cap on the whole body: refused (413) as soon as it grows past it. */
  maxBodyBytes?: number;
  /** The 413 message for a body over `maxBodyBytes`. */
  bodyTooLarge?: (maxBodyBytes: number) => string;
}

const lineTooLarge = (lineNo: number, max: number) => `Error parsing data, line ${lineNo}: Serialized value too large - max ${max} bytes`;
const bodyTooLarge = (max: number) => `Request Entity Too Large: a body is limited to ${max} bytes`;

/** JSON.parse of one posted line, refused with a 400 naming its 1-based line number. */
export function jsonOfLine(text: string, lineNo: number): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new IngestError(400, `Error parsing data, line ${lineNo}: invalid JSON (${(e as Error).message})`);
  }
}

/**
 * Splits a body into lines as it arrives (blank lines are skipped), refuses a line over
 * `maxRecordBytes` with 413 before holding it whole (and the body as soon as it grows past
 * `maxBodyBytes`, if given), a line that is not UTF-8 with 400 (decoded once whole, so a
 * character split across two pieces is read as one), and a line nesting deeper than
 * MAX_JSON_DEPTH with 400 (every JSON-lines body of every API passes here, so none can
 * store a value that a read cannot serve), hands every other line to `parse` (which
 * throws to refuse it, e.g. an
 * IngestError) and yields the results in chunks of about `chunkBytes`, so no body is ever
 * held whole. `parse` also gets the line's UTF-8 bytes as posted (a view of the body, not
 * a copy) and whether its text is compact JSON (no whitespace outside strings): such a
 * line can be stored as it came, without encoding it again.
 */
export async function* readLines<T>(
  body: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  parse: (text: string, lineNo: number, bytes: Buffer, compact: boolean) => T,
  options: LineReaderOptions,
): AsyncGenerator<LineChunk<T>> {
  const tooLarge = options.tooLarge ?? lineTooLarge;
  const maxBodyBytes = options.maxBodyBytes ?? Infinity;
  let carry: Buffer | null = null;
  let lineNo = 0;
  let total = 0;
  let records: T[] = [];
  let bytes = 0;

  const take = (buf: Buffer, start: number, end: number) => {
    lineNo++;
    const length = end - start;
    if (length > options.maxRecordBytes) throw new IngestError(413, tooLarge(lineNo, options.maxRecordBytes));
    const posted = buf.subarray(start, end);
    const text = lineText(posted, lineNo);
    if (text.trim() === '') return;
    const flags = jsonTextFlags(text);
    if (flags & JSON_TOO_DEEP) throw new IngestError(400, `Error parsing data, line ${lineNo}: ${TOO_DEEP}`);
    records.push(parse(text, lineNo, posted, (flags & JSON_NOT_COMPACT) === 0));
    bytes += length;
  };

  for await (const piece of body) {
    let buf = typeof piece === 'string' ? Buffer.from(piece) : piece;
    total += buf.length;
    if (total > maxBodyBytes) throw new IngestError(413, (options.bodyTooLarge ?? bodyTooLarge)(maxBodyBytes));
    if (carry) {
      buf = Buffer.concat([carry, buf]);
      carry = null;
    }
    let start = 0;
    let nl = buf.indexOf(10, start);
    while (nl >= 0) {
      take(buf, start, nl);
      start = nl + 1;
      nl = buf.indexOf(10, start);
    }
    if (start < buf.length) {
      if (buf.length - start > options.maxRecordBytes + 2) throw new IngestError(413, tooLarge(lineNo + 1, options.maxRecordBytes));
      carry = buf.subarray(start);
    }
    if (bytes >= options.chunkBytes) {
      yield { records, bytes };
      records = [];
      bytes = 0;
    }
  }
  if (carry) take(carry, 0, carry.length);
  if (records.length) yield { records, bytes };
}

/** One line's text: strict UTF-8, else a 400 naming the line. */
function lineText(bytes: Buffer, lineNo: number): string {
  try {
    return decodeUtf8(bytes);
  } catch (e) {
    if (e instanceof InvalidUtf8Error) throw new IngestError(400, `Error parsing data, line ${lineNo}: ${e.message}`);
    throw e;
  }
}

/** Passes chunks of lines on as they are read, counting their records (read `records` once consumed). */
export class CountedLines<T> implements AsyncIterable<LineChunk<T>> {
  records = 0;

  constructor(private readonly chunks: AsyncIterable<LineChunk<T>>) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<LineChunk<T>> {
    for await (const c of this.chunks) {
      this.records += c.records.length;
      yield c;
    }
  }
}

/**
 * True when a valid JSON text has no whitespace outside its strings (jsonTextFlags, which
 * skips strings with `indexOf`; the ingest path asks it together with the depth).
 */
export function isCompactJson(text: string): boolean {
  return (jsonTextFlags(text, Infinity) & JSON_NOT_COMPACT) === 0;
}
