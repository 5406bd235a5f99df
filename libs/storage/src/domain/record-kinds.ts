import { isCompactJson } from '@crawlhub/http';
import { msgpackSize } from './msgpack-size';

/** Kinds of job records; a kind's index is its stored id, so new kinds go last. */
export const RECORD_KINDS = ['items', 'logs', 'requests', 'samples'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export class RecordError extends Error {}

/** A record ready to store: its compact JSON text and its stats contribution. */
export interface NormalizedRecord {
  json: string;
  /** The UTF-8 bytes of `json` when they are the line as posted (kept as written): the log event takes them as they are. */
  bytes?: Buffer;
  size: number;
  countKeys: string[];
}

/** A record's line as posted: its text, its UTF-8 bytes, and whether it is compact JSON (if the reader knows). */
export interface PostedLine {
  text: string;
  bytes?: Buffer;
  compact?: boolean;
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
export function normalizeRecord(kind: RecordKind, value: unknown, raw?: string | PostedLine): NormalizedRecord {
  if (kind === 'samples') {
    // A sample is an array `[ts, v1, v2, ...]` (compat-notes §1.5).
    if (!Array.isArray(value) || !isInt(value[0])) throw new RecordError('a sample is a JSON array starting with an integer timestamp');
    const line = postedLine(raw);
    return { json: line ? line.text : JSON.stringify(value), bytes: line?.bytes, size: msgpackSize(value), countKeys: [] };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RecordError('expected a JSON object');
  }
  const obj = value as Obj;
  if (kind === 'items') {
    // An item already written compactly is kept as the client wrote it: that saves a
    // re-serialisation on the hot path, and keeps number spellings (1.0, big integers) exact.
    const line = postedLine(raw);
    return { json: line ? line.text : JSON.stringify(obj), bytes: line?.bytes, size: msgpackSize(obj), countKeys: Object.keys(obj) };
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
 * An item or sample is stored as the client wrote it when its line is compact JSON (no
 * re-serialisation on the hot path, number spellings such as 1.0 or big integers kept
 * exact): that line, else null (the value is serialised compactly).
 */
function postedLine(raw: string | PostedLine | undefined): PostedLine | null {
  if (raw === undefined) return null;
  const line = typeof raw === 'string' ? { text: raw } : raw;
  return line.compact ?? isCompactJson(line.text) ? line : null;
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
