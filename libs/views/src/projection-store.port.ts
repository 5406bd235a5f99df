import { LoggedEvent, LogPosition } from '@crawlhub/eventlog';

export const PROJECTION_STORE = Symbol('PROJECTION_STORE');

/** A write's event is in the log but the views could not apply it (a poison event, skipped): the write fails. */
export class ProjectionFailedError extends Error {
  constructor(readonly failed: LogPosition[]) {
    super(`the write is in the event log but the views could not apply it (${failed.map((p) => `${p.topic}/${p.partition}@${p.offset}`).join(', ')}; see the projector's log)`);
  }
}

/**
 * Where projections keep their checkpoints, and how a batch is applied exactly once in
 * effect: events at or below a partition's checkpoint are skipped, and the view changes
 * of a batch become visible together with the checkpoint that covers them.
 */
export interface ProjectionStore {
  applyBatch(topic: string, partition: number, events: LoggedEvent[], apply: (e: LoggedEvent) => Promise<void>): Promise<void>;
  /** The next offset this store expects in the partition (0 when nothing was applied). */
  nextOffset(topic: string, partition: number): Promise<number>;
  /** Every checkpoint in one read: the next offset of each partition applied so far, by `topic:partition` (readiness, lag metrics). */
  allCheckpoints(): Promise<Map<string, number>>;
  /**
   * Resolves true once every position is applied, false when the bound passes first;
   * rejects with ProjectionFailedError when one of them was skipped as a poison event.
   */
  waitFor(positions: LogPosition[], timeoutMs: number): Promise<boolean>;
  /**
   * Resolves when a projector in this process (any thread) has applied something, or after
   * `timeoutMs`, whichever comes first: the wake-up of live readers (the storage API's
   * event streams). A projector in another process wakes nobody, so callers bound the wait.
   */
  nextChange(timeoutMs: number): Promise<void>;
  /**
   * Records an event that the projections could not apply however often they tried (a
   * poison event) and moves its partition's checkpoint past it, so the events behind it
   * apply. Replay meets it again and records it again (docs/DESIGN.md).
   */
  skipFailed(e: LoggedEvent, error: string): Promise<void>;
  /** Whether a failure is the store's own (unreachable, busy, full): never a reason to skip an event. */
  isStoreFailure(error: unknown): boolean;
  /** Drops every view and checkpoint: the first step of a replay. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** A read model built from the log. Register one with the @Projection() decorator. */
export interface Projection {
  readonly topics: readonly string[];
  apply(event: LoggedEvent): Promise<void>;
}

/**
 * The single consumer of a topic's requests that decides them (the owner of a key's
 * partition) and appends each decision as a fact, which projections fold. It reads the
 * views folded from its earlier facts, so the projector runs it (and waits for it).
 */
export interface LogDecider {
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Decides, in log order, every request that has no fact yet (a log written before
   * decisions were facts), appending each fact and folding it with `applyViews` before the
   * next decision. For replay, with no projector running; answers how many it decided.
   */
  decideUndecided(applyViews: (topics: string[]) => Promise<void>): Promise<number>;
}
