import { LogPosition } from '@crawlhub/eventlog';
import { PlannedBatch } from '../domain/batches';
import { LeaseCandidate } from '../domain/lease';

export const FRONTIER_VIEW = Symbol('FRONTIER_VIEW');

/** One slot of one frontier of a project. */
export interface SlotRef {
  project: number;
  frontier: string;
  slot: string;
}

/** A queued batch as reads see it. */
export interface StoredBatch {
  id: string;
  count: number;
  /** JSON text `[[fp, qdata or null], ...]`. */
  requests: string;
  /** ms; 0 when never leased. */
  leasedUntil: number;
}

export interface StoredFingerprint {
  fp: string;
  /** The fdata stored with it as JSON text, null when none. */
  fdata: string | null;
}

/** What the owner of a slot's partition decided for a request event. */
export type FrontierOutcome = { newcount: number } | { leased: string[] };

/**
 * The crawl frontier: per slot a fingerprint set, a queue of batches (with leases), and
 * the recorded outcomes of request events. Every change of a slot comes from its
 * partition, in log order. Decision-time reads (`leaseCandidates`, `outcome` when called
 * by the projection) see the changes of earlier events of the batch being applied.
 * Applying an event again changes nothing (SQLite: the projection store's transaction;
 * MongoDB: `_o` guards, and fingerprints remember the offset that inserted them).
 */
export interface FrontierView {
  /**
   * Adds the fingerprints (distinct) to the slot's set; returns, for each, whether it is
   * new: absent before, or inserted by this very event (`at.offset`) when applied again.
   * A known fingerprint keeps its fdata.
   */
  addFingerprints(at: LogPosition, slot: SlotRef, fps: { fp: string; fdata: string | null }[]): Promise<boolean[]>;
  putBatches(at: LogPosition, slot: SlotRef, batches: PlannedBatch[]): Promise<void>;
  /** Removes the batches (created before `at`); unknown ids are ignored. */
  deleteBatches(at: LogPosition, slot: SlotRef, ids: string[]): Promise<void>;
  /** Removes the slot's fingerprints, batches and leases (those created before `at`). */
  deleteSlot(at: LogPosition, slot: SlotRef): Promise<void>;
  /** Batches of the slot in id order from `from` (inclusive) or after `after`, with their lease state. */
  leaseCandidates(slot: SlotRef, range: { from?: string; after?: string }, limit: number): Promise<LeaseCandidate[]>;
  lease(at: LogPosition, slot: SlotRef, ids: string[], until: number): Promise<void>;
  /** Records the outcome under the request id (first write wins); `time` is the event's time. */
  saveOutcome(at: LogPosition, requestId: string, time: number, outcome: FrontierOutcome): Promise<void>;
  outcome(requestId: string): Promise<FrontierOutcome | null>;
  /** Forgets outcomes of events older than `before` (event time, ms). */
  pruneOutcomes(at: LogPosition, before: number): Promise<void>;

  /** Queued batches in id order from `from` (inclusive) or after `after`. */
  batches(slot: SlotRef, range: { from?: string; after?: string }, limit: number): Promise<StoredBatch[]>;
  batchesById(slot: SlotRef, ids: string[]): Promise<StoredBatch[]>;
  /** Number of queued requests of at most `maxBatches` batches from `from`; `next` is the id of the batch after them, if any. */
  countRequests(slot: SlotRef, from: string | undefined, maxBatches: number): Promise<{ count: number; next: string | null }>;
  /** Fingerprints in byte order, from `from` (inclusive) or after `after`. */
  fingerprints(slot: SlotRef, range: { from?: string; after?: string }, limit: number): Promise<StoredFingerprint[]>;
  /** Names of the project's frontiers that have slots, sorted. */
  frontiers(project: number): Promise<string[]>;
  /** Names of the frontier's slots (those with fingerprints or batches), sorted. */
  slots(project: number, frontier: string): Promise<string[]>;
}
