import { NormalizedRecord, normalizeRecord, RecordError, RecordKind } from '../domain/record-kinds';

export class IngestError extends Error {
  constructor(readonly status: 400 | 413, message: string) {
    super(message);
  }
}

export interface RecordChunk {
  records: NormalizedRecord[];
  bytes: number;
}

/**
 * Reads a JSON-lines body as it streams in and yields checked records in chunks of
 * about `chunkBytes`, so no body is ever held whole. A line over `maxRecordBytes` is
 * refused (413) as soon as it grows past the limit; a malformed line gives 400 naming
 * its 1-based line number.
 */
export async function* readJsonLines(
  body: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  kind: RecordKind,
  options: { maxRecordBytes: number; chunkBytes: number },
): AsyncGenerator<RecordChunk> {
  let carry: Buffer | null = null;
  let lineNo = 0;
  let records: NormalizedRecord[] = [];
  let bytes = 0;

  const take = (buf: Buffer, start: number, end: number) => {
    lineNo++;
    const length = end - start;
    if (length > options.maxRecordBytes) {
      throw new IngestError(413, `Error parsing data, line ${lineNo}: Serialized value too large - max ${options.maxRecordBytes} bytes`);
    }
    const text = buf.toString('utf8', start, end);
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new IngestError(400, `Error parsing data, line ${lineNo}: invalid JSON (${(e as Error).message})`);
    }
    let record: NormalizedRecord;
    try {
      record = normalizeRecord(kind, value, text);
    } catch (e) {
      if (e instanceof RecordError) throw new IngestError(400, `Error parsing data, line ${lineNo}: ${e.message}`);
      throw e;
    }
    records.push(record);
    bytes += length;
  };

  for await (const piece of body) {
    let buf = typeof piece === 'string' ? Buffer.from(piece) : piece;
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
      if (buf.length - start > options.maxRecordBytes + 2) {
        throw new IngestError(413, `Error parsing data, line ${lineNo + 1}: Serialized value too large - max ${options.maxRecordBytes} bytes`);
      }
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
