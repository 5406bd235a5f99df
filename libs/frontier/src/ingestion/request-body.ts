import { jsonOfLine, readLines } from '@crawlhub/http';

/**
 * Reads a JSON-lines frontier POST as it streams in and returns what `take` makes of each
 * non-blank line (given the parsed value and its 1-based line number). The whole body is
 * refused (413) as soon as it grows past `maxPostBytes`, a malformed line with 400 naming
 * it: the caller applies nothing unless the whole body was good.
 */
export async function readRequestBody<T>(
  body: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  maxPostBytes: number,
  take: (value: unknown, lineNo: number) => T,
): Promise<T[]> {
  let out: T[] = [];
  const chunks = readLines(body, (text, lineNo) => take(jsonOfLine(text, lineNo), lineNo), {
    // No line outgrows the body: the body cap always answers first.
    maxRecordBytes: maxPostBytes,
    chunkBytes: Infinity,
    maxBodyBytes: maxPostBytes,
    bodyTooLarge: (max) => `Request Entity Too Large: a frontier POST is limited to ${max} bytes; send fewer requests per POST`,
  });
  for await (const c of chunks) out = out.length ? out.concat(c.records) : c.records;
  return out;
}
