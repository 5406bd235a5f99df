import { gzipSync } from 'node:zlib';

/** Bodies and values the cases are made of. */

/** A JSON object nested `depth` levels: {"a":{"a":…1…}}. */
export function deepObject(depth: number, key = 'a'): string {
  return `{"${key}":`.repeat(depth - 1) + `{"${key}":1}` + '}'.repeat(depth - 1);
}

/** A JSON array nested `depth` levels: [[[…]]]. */
export function deepArray(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

/** `{"<field>": <value text>}` wrapped so that the whole object is `depth` levels deep. */
export function objectWithDeep(field: string, depth: number, extra = ''): string {
  return `{${extra}"${field}":${deepObject(depth - 1)}}`;
}

/** JSON lines of these objects, each line ending in \n. */
export function jl(...records: unknown[]): string {
  return records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r)) + '\n').join('');
}

/** Text with bytes that are not UTF-8 (a lone continuation byte and an overlong NUL) in the middle. */
export function withInvalidUtf8(before: string, after: string): Buffer {
  return Buffer.concat([Buffer.from(before), Buffer.from([0x80, 0xc0, 0x80, 0xff]), Buffer.from(after)]);
}

export const gzip = (text: string | Buffer): Buffer => gzipSync(text);

/** A body announced as gzip that is not: plain text, then a gzip header with a broken stream. */
export const NOT_GZIP = Buffer.from('{"name":"plain text, not gzip"}\n');
export const TRUNCATED_GZIP = gzipSync('{"name":"cut"}\n'.repeat(1000)).subarray(0, 40);

/** 1 GiB of one JSON string once inflated (about 1 MB on the wire): a record must be refused at its size limit, not inflated whole. */
export function gzipBomb(): Buffer {
  return gzipSync(Buffer.concat([Buffer.from('{"bomb":"'), Buffer.alloc(256 * 1024 * 1024, 0x61), Buffer.from('"}\n')]), { level: 9 });
}

export const MIB = 1024 * 1024;
export const TWO_POW_53 = '9007199254740992';
export const TWO_POW_64 = '18446744073709551616';
