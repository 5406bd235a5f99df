import { decodeUtf8, InvalidUtf8Error, isCompactJson, JsonTooDeepError, parseJson } from '@crawlhub/http';

/** A POST body that cannot be stored: 400 (malformed, not an object) or 413 (too large). */
export class ActivityInputError extends Error {
  constructor(readonly status: 400 | 413, message: string) {
    super(message);
  }
}

/** Reads a whole body (activity posts are small) as UTF-8 text, refused with 413 past `limit` bytes, 400 when not UTF-8. */
export async function readActivityBody(body: AsyncIterable<Buffer | string> | Iterable<Buffer | string>, limit: number): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const piece of body) {
    const buf = typeof piece === 'string' ? Buffer.from(piece) : piece;
    size += buf.length;
    if (size > limit) throw new ActivityInputError(413, `Error parsing data: request body too large - max ${limit} bytes`);
    parts.push(buf);
  }
  try {
    return decodeUtf8(Buffer.concat(parts));
  } catch (e) {
    if (e instanceof InvalidUtf8Error) throw new ActivityInputError(400, `Error parsing data: ${e.message}`);
    throw e;
  }
}

/**
 * The messages of a POST body, as compact JSON object texts in the order written: one
 * JSON object (which may span several lines, pretty-printed), or JSON lines of objects
 * (blank lines are skipped). A line already written compactly is kept byte for byte
 * (key order, number spellings); any other is re-serialised compactly. Anything else is
 * refused as a whole, naming the 1-based line at fault.
 */
export function parseActivityMessages(text: string, maxMessageBytes: number): string[] {
  if (text.trim() === '') return [];
  const lines = text.split('\n');
  if (lines.filter((l) => l.trim() !== '').length > 1) {
    // Several lines: one object spread over them, or JSON lines.
    let whole: unknown;
    try {
      whole = parseJson(text);
    } catch (e) {
      if (e instanceof JsonTooDeepError) throw new ActivityInputError(400, `Error parsing data, line ${firstLine(lines)}: ${e.message}`);
      whole = undefined;
    }
    if (whole !== undefined) return [message(whole, text.trim(), firstLine(lines), maxMessageBytes)];
  }
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    if (Buffer.byteLength(line, 'utf8') > maxMessageBytes) throw tooLarge(i + 1, maxMessageBytes);
    let value: unknown;
    try {
      value = parseJson(line);
    } catch (e) {
      throw new ActivityInputError(400, `Error parsing data, line ${i + 1}: invalid JSON (${(e as Error).message})`);
    }
    out.push(message(value, line, i + 1, maxMessageBytes));
  }
  return out;
}

function message(value: unknown, raw: string, lineNo: number, maxMessageBytes: number): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ActivityInputError(400, `Error parsing data, line ${lineNo}: an activity message must be a JSON object`);
  }
  const json = isCompactJson(raw) ? raw : JSON.stringify(value);
  if (Buffer.byteLength(json, 'utf8') > maxMessageBytes) throw tooLarge(lineNo, maxMessageBytes);
  return json;
}

function firstLine(lines: string[]): number {
  return lines.findIndex((l) => l.trim() !== '') + 1;
}

function tooLarge(lineNo: number, max: number): ActivityInputError {
  return new ActivityInputError(413, `Error parsing data, line ${lineNo}: Serialized value too large - max ${max} bytes`);
}
