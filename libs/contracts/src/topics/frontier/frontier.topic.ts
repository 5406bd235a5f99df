import { z } from 'zod';
import { defineTopic, MILLIS, PROJECT_ID } from '../../topic-contract';

/**
 * Topic `frontier`: the crawl frontier (HCF) of the storage API. Key: the slot,
 * `<project>/<frontier>/<slot>` (see `frontierSlotKey`), so every change of one slot is
 * decided, in log order, by the single owner of its partition (the frontier decider):
 * which fingerprints are new (`newcount`), the ids of the batches they form, which
 * batches a lease takes. Every change is asked for by a request event; the decider
 * appends what it decided as a `frontier.decided` fact, which the views fold and the API
 * waits for. Replay folds the facts: it never decides again.
 */
export const FRONTIER_TOPIC = 'frontier';

/** The partition key of a slot's events. Frontier and slot names never contain '/'. */
export function frontierSlotKey(project: number, frontier: string, slot: string): string {
  return `${project}/${frontier}/${slot}`;
}

const SLOT_EVENT = z.object({ project: PROJECT_ID, frontier: z.string().min(1), slot: z.string().min(1) });
const REQUEST_ID = z.string().min(1);

/**
 * A request: one POST of requests to a slot. The requests travel as the event's `lines`
 * attachment, one compact JSON array per request, already checked by the API:
 * `[fp, p]`, `[fp, p, qdata]` or `[fp, p, qdata, fdata]` (fp a non-empty string, p an
 * integer 0-255; a missing qdata/fdata is null or left out). Decided: which fingerprints
 * are new to the slot (first occurrence in the POST wins) and the batches they form.
 */
export const FRONTIER_REQUESTS_ADDED = 'frontier.requests-added';
const FRONTIER_REQUESTS_ADDED_DATA = SLOT_EVENT.extend({ requestId: REQUEST_ID });
export type FrontierRequestsAdded = z.infer<typeof FRONTIER_REQUESTS_ADDED_DATA>;

/** A request: batches removed from the slot's queue (POST q/deleted); unknown ids are ignored. */
export const FRONTIER_BATCHES_DELETED = 'frontier.batches-deleted';
const FRONTIER_BATCHES_DELETED_DATA = SLOT_EVENT.extend({ ids: z.array(z.string()) });
export type FrontierBatchesDeleted = z.infer<typeof FRONTIER_BATCHES_DELETED_DATA>;

/** A request: the whole slot removed, queue, fingerprints and leases (DELETE s/<slot>). */
export const FRONTIER_SLOT_DELETED = 'frontier.slot-deleted';
export type FrontierSlotDeleted = z.infer<typeof SLOT_EVENT>;

/**
 * A request: a queue read with `lease=<seconds>` (crawlhub's extension). Decided: in id
 * order from `start` (inclusive, null: the beginning), the batches whose lease has
 * expired at the event's `occurredAt`, until they hold at least `mincount` requests,
 * leased until occurredAt + leaseMs.
 */
export const FRONTIER_BATCHES_LEASED = 'frontier.batches-leased';
const FRONTIER_BATCHES_LEASED_DATA = SLOT_EVENT.extend({
  requestId: REQUEST_ID,
  mincount: z.number().int().nonnegative(),
  leaseMs: MILLIS,
  start: z.string().nullable(),
});
export type FrontierBatchesLeased = z.infer<typeof FRONTIER_BATCHES_LEASED_DATA>;

/** The request events of the topic: each gets exactly one `frontier.decided` fact. */
export const FRONTIER_REQUEST_TYPES: readonly string[] = [FRONTIER_REQUESTS_ADDED, FRONTIER_BATCHES_LEASED, FRONTIER_BATCHES_DELETED, FRONTIER_SLOT_DELETED];

const BATCH_ID = z.string().regex(/^[0-9a-f]{20}$/);
const FRONTIER_DECISION = z.discriminatedUnion('op', [
  /**
   * The new requests, as the fact's `lines` (the request's own lines, in batch order), and
   * the batches they form: each takes the next `count` lines.
   */
  z.object({ op: z.literal('add'), newcount: z.number().int().nonnegative(), batches: z.array(z.object({ id: BATCH_ID, count: z.number().int().positive() })) }),
  /** The batches leased, until (ms). */
  z.object({ op: z.literal('lease'), leased: z.array(BATCH_ID), until: MILLIS }),
  z.object({ op: z.literal('delete-batches'), ids: z.array(z.string()) }),
  z.object({ op: z.literal('delete-slot') }),
]);
export type FrontierDecision = z.infer<typeof FRONTIER_DECISION>;

/**
 * `frontier.decided` (key: the slot, so it follows its request in the slot's stream): what
 * the slot's decider (consumer group `frontier-decider`) decided for one request. It is
 * the truth the frontier views fold; replay never decides again. Envelope: the request's
 * actor and correlation id, causation id = the request's event id. `failed` replaces
 * `decision` for a request the decider could not decide (its caller gets an error). The
 * fold applies the first fact of a request (by `requestOffset`) and ignores any later one.
 */
export const FRONTIER_DECIDED = 'frontier.decided';
const FRONTIER_DECIDED_DATA = SLOT_EVENT.extend({
  /** The request's `requestId` (null for deletes, which have none). */
  requestId: REQUEST_ID.nullable(),
  /** The request's offset in the partition both share: the decider's decided-through mark. */
  requestOffset: z.number().int().nonnegative(),
  /** The request's time (the decision's clock), ms. */
  requestedAt: MILLIS,
  /** Bumped whenever the decider's rules change, so the log says which rules decided. */
  deciderVersion: z.number().int().positive(),
  decision: FRONTIER_DECISION.optional(),
  failed: z.string().optional(),
});
export type FrontierDecided = z.infer<typeof FRONTIER_DECIDED_DATA>;

export const FRONTIER_CONTRACT = defineTopic(
  [FRONTIER_TOPIC],
  {
    [FRONTIER_REQUESTS_ADDED]: FRONTIER_REQUESTS_ADDED_DATA,
    [FRONTIER_BATCHES_DELETED]: FRONTIER_BATCHES_DELETED_DATA,
    [FRONTIER_SLOT_DELETED]: SLOT_EVENT,
    [FRONTIER_BATCHES_LEASED]: FRONTIER_BATCHES_LEASED_DATA,
    [FRONTIER_DECIDED]: FRONTIER_DECIDED_DATA,
  },
  (_type, d) => frontierSlotKey(d.project, d.frontier, d.slot),
);
