import { IngestError, jsonOfLine, readLines } from '@crawlhub/http';
import { NormalizedRecord, normalizeRecord, RecordError, RecordKind } from '../domain/record-kinds';

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
export function readJsonLines(
  body: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  kind: RecordKind,
  options: { maxRecordBytes: number; chunkBytes: number },
): AsyncGenerator<RecordChunk> {
  return readLines(body, (text, lineNo) => {
    const value = jsonOfLine(text, lineNo);
    try {
      return normalizeRecord(kind, value, text);
    } catch (e) {
      if (e instanceof RecordError) throw new IngestError(400, `Error parsing data, line ${lineNo}: ${e.message}`);
      throw e;
    }
  }, options);
}
