import { LogPosition } from '@crawlhub/eventlog';

export const ACTIVITY_VIEW = Symbol('ACTIVITY_VIEW');

/** A message to record: its id (unique, derived from the event that carries it), JSON text and time (ms). */
export interface ActivityMessage {
  id: string;
  /** A compact JSON object text, stored and served as is. */
  json: string;
  ts: number;
}

/**
 * Where a message sits in its project's log. Messages are ordered by `ts`, then by the
 * log offset of the event that recorded them (`o`), then by their index in that event
 * (`n`), then by id: a total order that replay rebuilds identically, whatever order the
 * projector applies topics in. Newest first = descending.
 */
export interface ActivityPosition {
  ts: number;
  o: number;
  n: number;
  id: string;
}

export interface StoredActivity extends ActivityPosition {
  project: number;
  json: string;
}

export interface ActivityScan {
  project: number;
  /** Only messages strictly older than this one (the last of the previous page). */
  before?: ActivityPosition;
  limit: number;
}

/**
 * The activity log of every project. The write side is called only by projections (the
 * activity projection, and other contexts' projections through `recordActivity`), with
 * the log position of the event being applied.
 */
export interface ActivityView {
  /**
   * Records messages of one project, in the order written. Idempotent: a message whose
   * id is already stored is left as it is, so re-applying an event changes nothing.
   */
  record(at: LogPosition, project: number, messages: ActivityMessage[]): Promise<void>;

  /** One page of a project's messages, newest first. */
  scan(q: ActivityScan): Promise<StoredActivity[]>;
  /** Every project that has messages, ascending. */
  projects(): Promise<number[]>;
}

/** Compares positions in the log's order: negative when `a` is older than `b`. */
export function compareActivity(a: ActivityPosition, b: ActivityPosition): number {
  return a.ts - b.ts || a.o - b.o || a.n - b.n || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
