import { z } from 'zod';
import { defineTopic, MILLIS, PROJECT_ID } from '../../topic-contract';

/**
 * Topic `frontier`: the crawl frontier (HCF) of the storage API. Key: the slot,
 * `<project>/<frontier>/<slot>` (see `frontierSlotKey`), so every change of one slot is
 * decided, in log order, by the single owner of its partition: which fingerprints are
 * new (`newcount`), the ids of the batches they form, which batches a lease takes.
 * Those decisions are recorded under the event's `requestId`; the API waits for them.
 */
export const FRONTIER_TOPIC = 'frontier';

/** The partition key of a slot's events. Frontier and slot names never contain '/'. */
export function frontierSlotKey(project: number, frontier: string, slot: string): string {
  return `${project}/${frontier}/${slot}`;
}

const SLOT_EVENT = z.object({ project: PROJECT_ID, frontier: z.string().min(1), slot: z.string().min(1) });
const REQUEST_ID = z.string().min(1);

/**
 * One POST of requests to a slot. The requests travel as the event's `lines`
 * attachment, one compact JSON array per request, already checked by the API:
 * `[fp, p]`, `[fp, p, qdata]` or `[fp, p, qdata, fdata]` (fp a non-empty string, p an
 * integer 0-255; a missing qdata/fdata is null or left out). When applied: the
 * fingerprints new to the slot (first occurrence in the POST wins) join its fingerprint
 * set and are queued in batches; `newcount` is recorded under `requestId`.
 */
export const FRONTIER_REQUESTS_ADDED = 'frontier.requests-added';
const FRONTIER_REQUESTS_ADDED_DATA = SLOT_EVENT.extend({ requestId: REQUEST_ID });
export type FrontierRequestsAdded = z.infer<typeof FRONTIER_REQUESTS_ADDED_DATA>;

/** Batches removed from the slot's queue (POST q/deleted); unknown ids are ignored. */
export const FRONTIER_BATCHES_DELETED = 'frontier.batches-deleted';
const FRONTIER_BATCHES_DELETED_DATA = SLOT_EVENT.extend({ ids: z.array(z.string()) });
export type FrontierBatchesDeleted = z.infer<typeof FRONTIER_BATCHES_DELETED_DATA>;

/** The whole slot removed: queue, fingerprints and leases (DELETE s/<slot>). */
export const FRONTIER_SLOT_DELETED = 'frontier.slot-deleted';
export type FrontierSlotDeleted = z.infer<typeof SLOT_EVENT>;

/**
 * A queue read with `lease=<seconds>` (crawlhub's extension). When applied, the owner
 * takes, in id order from `start` (inclusive, null: the beginning), the batches whose
 * lease has expired at the event's `occurredAt`, until they hold at least `mincount`
 * requests; leases them until occurredAt + leaseMs, and records their ids under
 * `requestId`.
 */
export const FRONTIER_BATCHES_LEASED = 'frontier.batches-leased';
const FRONTIER_BATCHES_LEASED_DATA = SLOT_EVENT.extend({
  requestId: REQUEST_ID,
  mincount: z.number().int().nonnegative(),
  leaseMs: MILLIS,
  start: z.string().nullable(),
});
export type FrontierBatchesLeased = z.infer<typeof FRONTIER_BATCHES_LEASED_DATA>;

export const FRONTIER_CONTRACT = defineTopic(
  [FRONTIER_TOPIC],
  {
    [FRONTIER_REQUESTS_ADDED]: FRONTIER_REQUESTS_ADDED_DATA,
    [FRONTIER_BATCHES_DELETED]: FRONTIER_BATCHES_DELETED_DATA,
    [FRONTIER_SLOT_DELETED]: SLOT_EVENT,
    [FRONTIER_BATCHES_LEASED]: FRONTIER_BATCHES_LEASED_DATA,
  },
  (_type, d) => frontierSlotKey(d.project, d.frontier, d.slot),
);
