import { msgpackSize } from './msgpack-size';

/** Kinds of job records; a kind's index is its stored id, so new kinds go last. */
export const RECORD_KINDS = ['items', 'logs', 'requests', 'samples'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export class RecordError extends Error {}

/** A record ready to store: its compact JSON text and its stats contribution. */
export interface NormalizedRecord {
  json: string;
  size: number;
  countKeys: string[];
}

type Obj = Record<string, unknown>;

const LOG_FIELDS = ['time', 'level', 'message'] as const;
const REQUEST_FIELDS = ['time', 'parent', 'duration', 'status', 'method', 'rs', 'url', 'fp'] as const;
const REQUEST_REQUIRED = ['time', 'method', 'url', 'status', 'duration', 'rs'];
const REQUEST_INTS = ['time', 'parent', 'duration', 'status', 'rs'];

function isInt(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v);
}

/**
 * How each kind of job record is checked, re-serialised and counted (compat-notes §1.1,
 * §8): items keep the field order they were written with; logs and requests are
 * re-serialised in their schema order, requests without null fields.
 */
export function normalizeRecord(kind: RecordKind, value: unknown, raw?: string): NormalizedRecord {
  if (kind === 'samples') {
    // A sample is an array `[ts, v1, v2, ...]` (compat-notes §1.5).
    if (!Array.isArray(value) || !isInt(value[0])) throw new RecordError('a sample is a JSON array starting with an integer timestamp');
    return { json: raw !== undefined && isCompactJson(raw) ? raw : JSON.stringify(value), size: msgpackSize(value), countKeys: [] };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RecordError('expected a JSON object');
  }
  const obj = value as Obj;
  if (kind === 'items') {
    // An item already written compactly is kept as the client wrote it: that saves a
    // re-serialisation on the hot path, and keeps number spellings (1.0, big integers) exact.
    const json = raw !== undefined && isCompactJson(raw) ? raw : JSON.stringify(obj);
    return { json, size: msgpackSize(obj), countKeys: Object.keys(obj) };
  }
  if (kind === 'logs') {
    if (typeof obj.message !== 'string') throw new RecordError('log record needs a string "message"');
    if (!isInt(obj.level)) throw new RecordError('log record needs an integer "level"');
    if (obj.time !== undefined && obj.time !== null && !isInt(obj.time)) throw new RecordError('log "time" must be an integer (ms)');
    const out: Obj = {};
    for (const f of LOG_FIELDS) if (obj[f] !== undefined && obj[f] !== null) out[f] = obj[f];
    for (const k of Object.keys(obj)) if (!(LOG_FIELDS as readonly string[]).includes(k)) out[k] = obj[k];
    return { json: JSON.stringify(out), size: msgpackSize(obj.message), countKeys: [String(obj.level)] };
  }
  for (const f of REQUEST_REQUIRED) {
    if (obj[f] === undefined || obj[f] === null) throw new RecordError(`request record needs "${f}"`);
  }
  for (const f of REQUEST_INTS) {
    if (obj[f] !== undefined && obj[f] !== null && !isInt(obj[f])) throw new RecordError(`request "${f}" must be an integer`);
  }
  if (typeof obj.method !== 'string' || typeof obj.url !== 'string') throw new RecordError('request "method" and "url" must be strings');
  if (obj.fp !== undefined && obj.fp !== null && typeof obj.fp !== 'string') throw new RecordError('request "fp" must be a string');
  const out: Obj = {};
  for (const f of REQUEST_FIELDS) if (obj[f] !== undefined && obj[f] !== null) out[f] = obj[f];
  for (const k of Object.keys(obj)) if (!(REQUEST_FIELDS as readonly string[]).includes(k) && obj[k] !== null) out[k] = obj[k];
  return { json: JSON.stringify(out), size: msgpackSize(out), countKeys: Object.keys(out).filter((k) => k !== 'time') };
}

/**
 * True when a valid JSON text has no whitespace outside its strings. Strings are skipped
 * with `indexOf` (native), so only the few characters between them are looked at one by
 * one: on the ingest path this ran once per record and cost more than its JSON.parse.
 */
export function isCompactJson(text: string): boolean {
  let from = 0;
  for (;;) {
    const open = text.indexOf('"', from);
    const end = open < 0 ? text.length : open;
    for (let i = from; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) return false;
    }
    if (open < 0) return true;
    const close = closingQuote(text, open);
    if (close < 0) return true; // not valid JSON: never asked (the text was parsed first)
    from = close + 1;
  }
}

/** The index of the quote closing the string opened at `open` (one not escaped by an odd run of backslashes), or -1. */
function closingQuote(text: string, open: number): number {
  for (let q = text.indexOf('"', open + 1); q >= 0; q = text.indexOf('"', q + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
  return -1;
}

/** The stats contribution of a record already stored (used when it is overwritten). */
export function storedContribution(kind: RecordKind, json: string): { size: number; countKeys: string[] } {
  const r = normalizeRecord(kind, JSON.parse(json));
  return { size: r.size, countKeys: r.countKeys };
}

/** Whether meta fields (`_key`, `_ts`) can be added: not to samples, which are arrays. */
export function takesMeta(kind: RecordKind): boolean {
  return kind !== 'samples';
}

/** Where `_key` goes when `meta=_key` is asked: last for items, first for logs and requests. */
export function keyFirst(kind: RecordKind): boolean {
  return kind !== 'items';
}
