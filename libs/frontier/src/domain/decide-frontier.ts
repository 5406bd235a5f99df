import {
  FRONTIER_BATCHES_DELETED, FRONTIER_BATCHES_LEASED, FRONTIER_REQUESTS_ADDED, FRONTIER_SLOT_DELETED, FrontierBatchesDeleted, FrontierBatchesLeased,
  FrontierDecision,
} from '@crawlhub/contracts';
import { firstOccurrences, groupIntoBatches } from './batches';
import { LeaseCandidate, LeasePicker } from './lease';
import { decodeRequestLine } from './requests';
import { SlotRef, slotOf } from './slot';

/**
 * The version of these rules, carried by every fact the frontier decider appends
 * (`frontier.decided`). Bump it with any change to what a request decides (which
 * fingerprints are new, how batches are formed and named, which batches a lease takes):
 * the log then says which rules took each decision, and replay (which only folds facts)
 * never applies new rules to old requests.
 */
export const FRONTIER_DECIDER_VERSION = 1;

/** Candidates read per page while a lease is decided. */
const LEASE_PAGE = 200;

/** What the decider reads: the slot as folded from the facts of every request before the one decided. */
export interface FrontierState {
  /** For each fingerprint, whether the slot's set holds it. */
  knownFingerprints(slot: SlotRef, fps: string[]): Promise<boolean[]>;
  /** Batches of the slot in id order from `from` (inclusive) or after `after`, with their lease state. */
  leaseCandidates(slot: SlotRef, range: { from?: string; after?: string }, limit: number): Promise<LeaseCandidate[]>;
}

/** A request event of the `frontier` topic, checked against its contract. */
export interface FrontierRequest {
  type: string;
  data: unknown;
  lines: readonly string[];
  /** Its log offset: the batch ids it forms carry it. */
  offset: number;
  /** Its time: the clock of lease decisions. */
  at: number;
}

/** A decision and, for added requests, the new requests' lines in batch order (the fact's `lines`). */
export interface Decided {
  decision: FrontierDecision;
  lines?: string[];
}

export async function decideFrontier(state: FrontierState, request: FrontierRequest): Promise<Decided> {
  switch (request.type) {
    case FRONTIER_REQUESTS_ADDED:
      return decideAdd(state, slotOf(request.data as SlotRef), request);
    case FRONTIER_BATCHES_LEASED:
      return { decision: await decideLease(state, request.data as FrontierBatchesLeased, request.at) };
    case FRONTIER_BATCHES_DELETED:
      return { decision: { op: 'delete-batches', ids: (request.data as FrontierBatchesDeleted).ids } };
    case FRONTIER_SLOT_DELETED:
      return { decision: { op: 'delete-slot' } };
    default:
      throw new Error(`${request.type} is not a frontier request`);
  }
}

/** The fingerprints new to the slot (first occurrence in the POST wins), queued in batches. */
async function decideAdd(state: FrontierState, slot: SlotRef, request: FrontierRequest): Promise<Decided> {
  const posted = request.lines.filter((l) => l !== '').map((line) => ({ line, ...decodeRequestLine(line) }));
  const requests = firstOccurrences(posted);
  const known = requests.length ? await state.knownFingerprints(slot, requests.map((r) => r.fp)) : [];
  const fresh = requests.filter((_, i) => !known[i]);
  const batches = groupIntoBatches(request.offset, fresh);
  return {
    decision: { op: 'add', newcount: fresh.length, batches: batches.map((b) => ({ id: b.id, count: b.members.length })) },
    lines: batches.flatMap((b) => b.members.map((r) => r.line)),
  };
}

/** In id order from `start`, the batches whose lease has expired at the request's time, until they hold `mincount` requests. */
async function decideLease(state: FrontierState, d: FrontierBatchesLeased, at: number): Promise<FrontierDecision> {
  const slot = slotOf(d);
  const picker = new LeasePicker(d.mincount, at);
  let range: { from?: string; after?: string } = d.start === null ? {} : { from: d.start };
  for (;;) {
    const page = await state.leaseCandidates(slot, range, LEASE_PAGE);
    if (picker.offer(page) || page.length < LEASE_PAGE) break;
    range = { after: page[page.length - 1].id };
  }
  return { op: 'lease', leased: picker.ids, until: at + d.leaseMs };
}
