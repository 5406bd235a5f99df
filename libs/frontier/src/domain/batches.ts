/**
 * How queued requests become batches, decided by the frontier decider for a
 * `frontier.requests-added` request (its fact carries the ids and sizes, so a replay never
 * forms them again): the requests new to the slot are grouped by priority
 * `p` (groups in order of first appearance, requests in POST order inside a group) and
 * cut into batches of at most BATCH_SIZE. A batch id is
 *
 *   2 hex digits of p | the request's log offset in 14 hex digits | the batch's index within
 *   the request in 4 hex digits
 *
 * (20 lowercase hex characters), so ids sort by p, then by age (the slot's events share
 * one partition, whose offsets grow), then by position in the POST.
 */
export const BATCH_SIZE = 100;
export const MAX_PRIORITY = 255;
/** Log offsets are safe integers: 2^53 - 1 is 0x1fffffffffffff, 14 hex digits. */
const MAX_OFFSET = Number.MAX_SAFE_INTEGER;
const MAX_INDEX = 16 ** 4 - 1;

/** A request as it travels in the event and is queued: fingerprint, priority, qdata and fdata (null when absent). */
export interface QueuedRequest {
  fp: string;
  p: number;
  qdata: unknown;
  fdata: unknown;
}

/** A batch as stored: its id, the number of requests and their JSON text `[[fp, qdata], ...]`. */
export interface PlannedBatch {
  id: string;
  count: number;
  requests: string;
}

export function batchId(p: number, offset: number, index: number): string {
  if (!Number.isInteger(p) || p < 0 || p > MAX_PRIORITY) throw new RangeError(`priority ${p} is not an integer 0-${MAX_PRIORITY}`);
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET) throw new RangeError(`offset ${offset} does not fit in 14 hex digits`);
  if (!Number.isInteger(index) || index < 0 || index > MAX_INDEX) throw new RangeError(`batch index ${index} does not fit in 4 hex digits`);
  return p.toString(16).padStart(2, '0') + offset.toString(16).padStart(14, '0') + index.toString(16).padStart(4, '0');
}

const BATCH_ID = /^[0-9a-f]{20}$/;

/** Whether a string has the shape of our batch ids (anything else is simply unknown). */
export function isBatchId(id: string): boolean {
  return BATCH_ID.test(id);
}

/** The requests of a POST without repeated fingerprints: the first occurrence wins. */
export function firstOccurrences<T extends { fp: string }>(requests: T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const r of requests) {
    if (seen.has(r.fp)) continue;
    seen.add(r.fp);
    out.push(r);
  }
  return out;
}

/** The batches the new requests of the request at `offset` form, with their members (see the file comment). */
export function groupIntoBatches<T extends { p: number }>(offset: number, fresh: T[]): { id: string; members: T[] }[] {
  const groups = new Map<number, T[]>();
  for (const r of fresh) {
    let g = groups.get(r.p);
    if (!g) groups.set(r.p, (g = []));
    g.push(r);
  }
  const out: { id: string; members: T[] }[] = [];
  let index = 0;
  for (const [p, group] of groups) {
    for (let i = 0; i < group.length; i += BATCH_SIZE) out.push({ id: batchId(p, offset, index++), members: group.slice(i, i + BATCH_SIZE) });
  }
  return out;
}

/** The batches as stored, from their ids and sizes and their requests in batch order (what a fact carries). */
export function storedBatches(batches: { id: string; count: number }[], requests: QueuedRequest[]): PlannedBatch[] {
  let at = 0;
  return batches.map((b) => {
    const slice = requests.slice(at, (at += b.count));
    return { id: b.id, count: slice.length, requests: batchRequestsJson(slice) };
  });
}

/** The batches the new requests of the request at `offset` form, as stored. */
export function planBatches(offset: number, fresh: QueuedRequest[]): PlannedBatch[] {
  return groupIntoBatches(offset, fresh).map((b) => ({ id: b.id, count: b.members.length, requests: batchRequestsJson(b.members) }));
}

/** `[[fp, qdata or null], ...]` as compact JSON. */
export function batchRequestsJson(requests: QueuedRequest[]): string {
  let s = '[';
  for (let i = 0; i < requests.length; i++) {
    const r = requests[i];
    if (i) s += ',';
    s += '[' + JSON.stringify(r.fp) + ',' + (r.qdata === null || r.qdata === undefined ? 'null' : JSON.stringify(r.qdata)) + ']';
  }
  return s + ']';
}

/** The JSON line of a batch in a queue read: `{"id":…,"requests":[[fp, qdata], …]}`. */
export function batchLine(b: { id: string; requests: string }): string {
  return `{"id":"${b.id}","requests":${b.requests}}`;
}
