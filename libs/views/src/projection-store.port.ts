import { LoggedEvent, LogPosition } from '@crawlhub/eventlog';

export const PROJECTION_STORE = Symbol('PROJECTION_STORE');

/**
 * Where projections keep their checkpoints, and how a batch is applied exactly once in
 * effect: events at or below a partition's checkpoint are skipped, and the view changes
 * of a batch become visible together with the checkpoint that covers them.
 */
export interface ProjectionStore {
  applyBatch(topic: string, partition: number, events: LoggedEvent[], apply: (e: LoggedEvent) => Promise<void>): Promise<void>;
  /** The next offset this store expects in the partition (0 when nothing was applied). */
  nextOffset(topic: string, partition: number): Promise<number>;
  /** Resolves true once every position is applied, false when the bound passes first. */
  waitFor(positions: LogPosition[], timeoutMs: number): Promise<boolean>;
  /** Drops every view and checkpoint: the first step of a replay. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** A read model built from the log. Register one with the @Projection() decorator. */
export interface Projection {
  readonly topics: readonly string[];
  apply(event: LoggedEvent): Promise<void>;
}
