import { IngestError, jsonOfLine, MAX_POSITION, readLines } from '@crawlhub/http';
import { NormalizedRecord, normalizeRecord, RecordError, RecordKind } from '../domain/record-kinds';

export interface RecordChunk {
  records: NormalizedRecord[];
  bytes: number;
}

/**
 * Reads a JSON-lines body as it streams in and yields checked records in chunks of
 * about `chunkBytes`, so no body is ever held whole. A line over `maxRecordBytes` is
 * refused (413) as soon as it grows past the limit; a malformed line gives 400 naming
 * its 1-based line number. With a `start` position, a record that would land past
 * MAX_POSITION is refused (400): every record of an accepted body can be read back.
 */
export function readJsonLines(
  body: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  kind: RecordKind,
  options: { maxRecordBytes: number; chunkBytes: number; start?: number | null },
): AsyncGenerator<RecordChunk> {
  const start = options.start ?? 0;
  let records = 0;
  return readLines(body, (text, lineNo, bytes, compact) => {
    if (start + records > MAX_POSITION) {
      throw new IngestError(400, `Error parsing data, line ${lineNo}: its position ${BigInt(start) + BigInt(records)} is past the last record position ${MAX_POSITION}`);
    }
    records++;
    const value = jsonOfLine(text, lineNo);
    try {
      return normalizeRecord(kind, value, { text, bytes, compact });
    } catch (e) {
      if (e instanceof RecordError) throw new IngestError(400, `Error parsing data, line ${lineNo}: ${e.message}`);
      throw e;
    }
  }, options);
}
