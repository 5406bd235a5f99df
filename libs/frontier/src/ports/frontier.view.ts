import { LogPosition } from '@crawlhub/eventlog';
import { PlannedBatch } from '../domain/batches';
import { FrontierState } from '../domain/decide-frontier';
import { SlotRef } from '../domain/slot';

export type { SlotRef } from '../domain/slot';

export const FRONTIER_VIEW = Symbol('FRONTIER_VIEW');

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

/** What a request was answered, folded from its fact: the newcount of a POST, the batches of a lease. */
export type FrontierOutcome = { newcount: number } | { leased: string[] };

/**
 * The crawl frontier: per slot a fingerprint set, a queue of batches (with leases), and
 * the answers of requests, folded from the frontier decider's facts (`frontier.decided`)
 * in log order. The decider reads it through FrontierState. Applying a fact again changes
 * nothing (SQLite: the projection store's transaction; MongoDB: whole documents written
 * with `$setOnInsert`, deletes guarded by `_o`, and the decided-through mark).
 */
export interface FrontierView extends FrontierState {
  /** Adds the fingerprints to the slot's set; a known fingerprint keeps its fdata. */
  addFingerprints(at: LogPosition, slot: SlotRef, fps: { fp: string; fdata: string | null }[]): Promise<void>;
  putBatches(at: LogPosition, slot: SlotRef, batches: PlannedBatch[]): Promise<void>;
  /** Removes the batches (created before `at`); unknown ids are ignored. */
  deleteBatches(at: LogPosition, slot: SlotRef, ids: string[]): Promise<void>;
  /** Removes the slot's fingerprints, batches and leases (those created before `at`). */
  deleteSlot(at: LogPosition, slot: SlotRef): Promise<void>;
  lease(at: LogPosition, slot: SlotRef, ids: string[], until: number): Promise<void>;
  /** Records the outcome under the request id (first write wins); `time` is the request's time. */
  saveOutcome(at: LogPosition, requestId: string, time: number, outcome: FrontierOutcome): Promise<void>;
  outcome(requestId: string): Promise<FrontierOutcome | null>;
  /** Forgets outcomes of requests older than `before` (request time, ms). */
  pruneOutcomes(at: LogPosition, before: number): Promise<void>;
  /**
   * The offset of the last request of a partition of the frontier topic whose fact is
   * folded (-1: none): every request up to it is decided. Written with the fact's documents.
   */
  decidedThrough(partition: number): Promise<number>;
  markDecided(at: LogPosition, partition: number, requestOffset: number): Promise<void>;
  /**
   * Whether the view was built by a release that decided requests while projecting them
   * (before frontier decisions were facts): the decider must not decide on it (its state is
   * the end of the log, not the fold of facts) until `crawlhub replay` rebuilds it.
   */
  builtBeforeFacts(): Promise<boolean>;

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
