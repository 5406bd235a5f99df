import { COLLECTION_TYPES, CollectionType, isWellFormed } from '@crawlhub/contracts';

/** A record line or request the collections API refuses: 400 (bad input) or 413 (too large). */
export class CollectionInputError extends Error {
  constructor(readonly status: 400 | 404 | 413, message: string) {
    super(message);
  }
}

/** A record as the views keep it: its key, its `_ts` (ms) and its JSON text without `_key`. */
export interface StoredCollectionRecord {
  key: string;
  ts: number;
  json: string;
}

/** A record ready to write: its key and its compact JSON text without `_key`. */
export interface CollectionRecordInput {
  key: string;
  json: string;
}

/**
 * Numbers in a record are at most 2^64 - 1 in magnitude (compat: "floating-point numbers at
 * most 2^64 - 1"). As a double, 2^64 - 1 is 2^64, as are its neighbours up to 2^64 + 2047:
 * a parsed value of exactly 2^64 is decided on the number as written.
 */
const TWO_TO_THE_64 = 2 ** 64;
const MAX_NUMBER_LITERAL = BigInt('18446744073709551615');

export function collectionTypeOf(segment: string): CollectionType | null {
  return (COLLECTION_TYPES as readonly string[]).includes(segment) ? (segment as CollectionType) : null;
}

export function typeId(type: CollectionType): number {
  return COLLECTION_TYPES.indexOf(type);
}

export function typeOfId(id: number): CollectionType {
  return COLLECTION_TYPES[id];
}

/** cs and vcs records expire. */
export function isCached(type: CollectionType): boolean {
  return type === 'cs' || type === 'vcs';
}

/** vs and vcs keep older versions. */
export function isVersioned(type: CollectionType): boolean {
  return type === 'vs' || type === 'vcs';
}

/** A key is a non-empty, well-formed string (so its UTF-8 bytes, and byte order, are defined). */
export function isValidKey(key: unknown): key is string {
  return typeof key === 'string' && key !== '' && isWellFormed(key);
}


/**
 * The first number of a parsed JSON value that may exceed 2^64 - 1 (magnitude 2^64 or more,
 * Infinity included), or undefined. Exactly 2^64 may be 2^64 - 1 as written: see numberLiteralOutOfRange.
 */
export function numberOutOfRange(value: unknown): number | undefined {
  if (typeof value === 'number') return Math.abs(value) >= TWO_TO_THE_64 || Number.isNaN(value) ? value : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const v of value) {
      const bad = numberOutOfRange(v);
      if (bad !== undefined) return bad;
    }
    return undefined;
  }
  for (const k in value as Record<string, unknown>) {
    const bad = numberOutOfRange((value as Record<string, unknown>)[k]);
    if (bad !== undefined) return bad;
  }
  return undefined;
}

const NUMBER_LITERAL = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** The first number of a JSON text whose magnitude, as written, exceeds 2^64 - 1, or null. */
export function numberLiteralOutOfRange(text: string): string | null {
  for (const [literal] of withoutStrings(text).matchAll(NUMBER_LITERAL)) {
    const magnitude = Math.abs(Number(literal));
    if (magnitude < TWO_TO_THE_64) continue;
    if (magnitude > TWO_TO_THE_64 || !/^-?\d+$/.test(literal) || BigInt(literal.replace('-', '')) > MAX_NUMBER_LITERAL) return literal;
  }
  return null;
}

/** The text with every string literal emptied (so what is left is structure, numbers and literals). */
function withoutStrings(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
}

/** Whether a text that JSON.parse refused spells Infinity, -Infinity or NaN outside its strings (Python's json does). */
export function hasNonFiniteLiteral(text: string): boolean {
  return /(^|[^A-Za-z0-9_])(-?Infinity|NaN)([^A-Za-z0-9_]|$)/.test(withoutStrings(text));
}

/** True when a valid JSON text has no whitespace outside its strings. */
function isCompact(text: string): boolean {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 32 || c === 9 || c === 10 || c === 13) return false;
  }
  return true;
}

const line = (n: number) => `Error parsing data, line ${n}`;

/**
 * Checks one posted line and splits it into its key and its record without `_key`.
 * The record keeps its field order; a compact line with `_key` first or last keeps its
 * other bytes as written (number spellings too), any other is re-serialised compactly.
 */
export function parseCollectionLine(text: string, lineNo: number): CollectionRecordInput {
  return recordOf(parseJsonLine(text, lineNo), lineNo, text);
}

/** JSON.parse of a posted line, refused with a 400 naming the line (Infinity and NaN by name). */
export function parseJsonLine(text: string, lineNo: number): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    if (hasNonFiniteLiteral(text)) throw new CollectionInputError(400, `${line(lineNo)}: infinite and NaN values are not supported`);
    throw new CollectionInputError(400, `${line(lineNo)}: invalid JSON (${(e as Error).message})`);
  }
}

/** Checks a parsed record (see parseCollectionLine); `text` is its JSON text when known. */
export function recordOf(value: unknown, lineNo: number, text?: string): CollectionRecordInput {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new CollectionInputError(400, `${line(lineNo)}: a collection record must be a JSON object`);
  }
  const key = (value as Record<string, unknown>)._key;
  if (key === undefined || key === null) throw new CollectionInputError(400, 'Error parsing data, missing value for _key field');
  if (!isValidKey(key)) throw new CollectionInputError(400, `${line(lineNo)}: _key must be a non-empty string`);
  const bad = numberOutOfRange(value);
  // Rare: only a record holding a number of magnitude 2^64 or more has its text looked at again.
  const shown = bad === undefined ? null : Math.abs(bad) === TWO_TO_THE_64 && text !== undefined ? numberLiteralOutOfRange(text) : String(bad);
  if (shown !== null) {
    throw new CollectionInputError(400, `${line(lineNo)}: number ${shown} out of range (the largest magnitude allowed is 2^64 - 1)`);
  }
  const asWritten = text === undefined ? null : withoutKeyAsWritten(text, key);
  if (asWritten !== null) return { key, json: asWritten };
  const { _key, ...rest } = value as Record<string, unknown>;
  return { key, json: JSON.stringify(rest) };
}

/** The compact text without its `_key` member when `_key` is its first or last member, else null. */
function withoutKeyAsWritten(text: string, key: string): string | null {
  const member = `"_key":${JSON.stringify(key)}`;
  let out: string | null = null;
  if (text === `{${member}}`) return '{}';
  if (text.startsWith(`{${member},`)) out = `{${text.slice(member.length + 2)}`;
  else if (text.endsWith(`,${member}}`)) out = `${text.slice(0, text.length - member.length - 2)}}`;
  if (out === null || out.includes('"_key"') || (WHITESPACE.test(out) && !isCompact(out))) return null;
  return out;
}

const WHITESPACE = /[ \t\r\n]/;

/** A record as it travels in an event line: the compact JSON array `[<key>,<record>]`. */
export function packCollectionLine(r: CollectionRecordInput): string {
  return `[${JSON.stringify(r.key)},${r.json}]`;
}

export function unpackCollectionLine(packed: string): CollectionRecordInput {
  // The key is the first string literal: find its closing quote, skipping escapes.
  let escaped = false;
  let end = 2;
  for (; end < packed.length; end++) {
    const c = packed.charCodeAt(end);
    if (c === 92) {
      escaped = true;
      end++;
    } else if (c === 34) break;
  }
  const key = escaped ? (JSON.parse(packed.slice(1, end + 1)) as string) : packed.slice(2, end);
  return { key, json: packed.slice(end + 2, packed.length - 1) };
}

/** Byte order of the keys' UTF-8 (what SQLite's BINARY collation and MongoDB compare). */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * The smallest string above every string that starts with `prefix` (in byte order of
 * UTF-8, which is code point order), or null when there is none (a prefix of U+10FFFF only).
 */
export function prefixEnd(prefix: string): string | null {
  const cps = [...prefix].map((c) => c.codePointAt(0)!);
  while (cps.length && cps[cps.length - 1] === 0x10ffff) cps.pop();
  if (cps.length === 0) return null;
  let last = cps.pop()! + 1;
  if (last === 0xd800) last = 0xe000;
  return String.fromCodePoint(...cps, last);
}

/** The smallest string above `key` in byte order: `startafter=key` is `start=` this. */
export function keyAfter(key: string): string {
  return `${key}\u0000`;
}

/** Appends the asked meta fields last, `_key` before `_ts`; `nodata` keeps only them. */
export function withMeta(r: StoredCollectionRecord, meta: { key: boolean; ts: boolean; nodata: boolean }): string {
  if (!meta.key && !meta.ts && !meta.nodata) return r.json;
  const parts: string[] = [];
  if (!meta.nodata && r.json.length > 2) parts.push(r.json.slice(1, -1));
  if (meta.key) parts.push(`"_key":${JSON.stringify(r.key)}`);
  if (meta.ts) parts.push(`"_ts":${r.ts}`);
  return `{${parts.join(',')}}`;
}

/** One record per key, the last written of each, in the order of those last writes. */
export function lastWins(records: CollectionRecordInput[]): CollectionRecordInput[] {
  const seen = new Set<string>();
  let dup = false;
  for (const r of records) {
    if (seen.has(r.key)) {
      dup = true;
      break;
    }
    seen.add(r.key);
  }
  if (!dup) return records;
  const last = new Map<string, number>();
  records.forEach((r, i) => last.set(r.key, i));
  return records.filter((r, i) => last.get(r.key) === i);
}
