import { MAX_PRIORITY, QueuedRequest } from './batches';

/** A request line (or delete line) that the API refuses; `line` is 1-based. */
export class FrontierInputError extends Error {
  constructor(readonly status: 400 | 413 | 415, message: string) {
    super(message);
  }
}

/** Longest fingerprint accepted, in UTF-8 bytes (URLs as fingerprints fit comfortably). */
export const MAX_FP_BYTES = 4096;

/**
 * Checks one posted request object and returns its compact event line
 * `[fp, p, qdata, fdata]` (trailing nulls left out). `fp`: a non-empty string of at most
 * MAX_FP_BYTES; `p`: an integer 0-255 (default 0; it is the first two hex digits of the
 * batch id); `qdata`, `fdata`: any JSON (null means absent). Other fields are ignored.
 */
export function requestLine(value: unknown, lineNo: number): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new FrontierInputError(400, `Error parsing data, line ${lineNo}: a request must be a JSON object with an "fp" field`);
  }
  const o = value as Record<string, unknown>;
  if (typeof o.fp !== 'string' || o.fp === '') {
    throw new FrontierInputError(400, `Error parsing data, line ${lineNo}: missing value for fp field (a non-empty string)`);
  }
  // A UTF-16 code unit is at most 3 UTF-8 bytes: count bytes only for long fingerprints.
  if (o.fp.length * 3 > MAX_FP_BYTES && Buffer.byteLength(o.fp, 'utf8') > MAX_FP_BYTES) {
    throw new FrontierInputError(400, `Error parsing data, line ${lineNo}: fp longer than ${MAX_FP_BYTES} bytes`);
  }
  let p = 0;
  if (o.p !== undefined && o.p !== null) {
    if (typeof o.p !== 'number' || !Number.isInteger(o.p) || o.p < 0 || o.p > MAX_PRIORITY) {
      throw new FrontierInputError(400, `Error parsing data, line ${lineNo}: p must be an integer from 0 to ${MAX_PRIORITY}`);
    }
    p = o.p;
  }
  const qdata = o.qdata === undefined ? null : o.qdata;
  const fdata = o.fdata === undefined ? null : o.fdata;
  let line = '[' + JSON.stringify(o.fp) + ',' + p;
  if (qdata !== null || fdata !== null) line += ',' + JSON.stringify(qdata);
  if (fdata !== null) line += ',' + JSON.stringify(fdata);
  return line + ']';
}

/** The request an event line stands for (see `requestLine`). */
export function decodeRequestLine(line: string): QueuedRequest {
  const a = JSON.parse(line) as [string, number, unknown?, unknown?];
  return { fp: a[0], p: a[1], qdata: a[2] ?? null, fdata: a[3] ?? null };
}

/**
 * The ids of one line of a POST to q/deleted: a JSON string, or an array of strings.
 */
export function deletedIds(value: unknown, lineNo: number): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  throw new FrontierInputError(400, `Error parsing data, line ${lineNo}: expected a batch id (a JSON string) or an array of batch ids`);
}
