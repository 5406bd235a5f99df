import { LogPosition } from '@crawlhub/eventlog';
import { SessionsState } from '../domain/decide-sessions';

export const PROXY_SESSIONS_VIEW = Symbol('PROXY_SESSIONS_VIEW');

/**
 * active: usable; refused: asked for over the limit (kept so the API can answer
 * user_session_limit); deleted: DELETE /sessions/<id>; pending: touched before its decision
 * was folded (only a log written before decisions were facts has that), completed by it.
 */
export type SessionState = 'active' | 'refused' | 'deleted' | 'pending';

export interface StoredSession {
  id: string;
  /** The exit id it is pinned to ('' until its decision is folded). */
  exit: string;
  /** ms since the epoch, as far as the log knows (creation, then the touches). */
  lastUsed: number;
  state: SessionState;
}

/** A decision as the fold writes it. */
export interface DecidedSession {
  id: string;
  exit: string;
  /** The request's time: its first use. */
  lastUsed: number;
  state: 'active' | 'refused';
}

/**
 * The proxy sessions of every user (the API key id): a plain fold of the topic's facts
 * (`decided`, `touched`, `deleted`), in the order of the user's partition, written only by
 * the projection. The decider reads it through SessionsState (on the writer's connection,
 * so it sees every fold committed); `session` and `active` are the reads of the proxy.
 * Applying an event again changes nothing: a decided session is written once (first write
 * wins), touches keep the newest use, a delete only marks an active (or not yet decided)
 * session.
 */
export interface ProxySessionsView extends SessionsState {
  /**
   * The offset of the last create request of a partition whose fact is folded (-1: none):
   * every request up to it is decided. Written with the fact's rows.
   */
  decidedThrough(partition: number): Promise<number>;
  markDecided(at: LogPosition, partition: number, requestOffset: number): Promise<void>;
  /**
   * Whether the view was built by a release that decided creates while projecting them
   * (before decisions were facts; its table was `proxy_sessions`): the decider must not
   * decide on it until `crawlhub replay` rebuilds it.
   */
  builtBeforeFacts(): Promise<boolean>;
  /** Forgets these sessions of the user (idle ones a decision forgot). */
  forget(at: LogPosition, user: string, ids: string[]): Promise<void>;
  /** Writes a decided session; one already decided is left as it is, a pending one is completed (a deleted one stays deleted). */
  putDecided(at: LogPosition, user: string, session: DecidedSession): Promise<void>;
  /** Raises the last use of the user's sessions (only ever forward); an id not known yet gets a pending row. */
  touch(at: LogPosition, user: string, lastUsed: Record<string, number>): Promise<void>;
  /** Marks the user's session deleted if it is active or pending; an id not known yet is remembered as deleted (last used `when`). */
  delete(at: LogPosition, user: string, id: string, when: number): Promise<void>;

  /** The user's session with this id, in any state. */
  session(user: string, id: string): Promise<StoredSession | null>;
  /** The user's active sessions (expired or not: expiry is judged by the reader, with its own last uses), by id. */
  active(user: string): Promise<StoredSession[]>;
}
