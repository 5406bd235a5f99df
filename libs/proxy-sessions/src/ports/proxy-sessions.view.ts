import { LogPosition } from '@crawlhub/eventlog';

export const PROXY_SESSIONS_VIEW = Symbol('PROXY_SESSIONS_VIEW');

/** active: usable; refused: asked for over the limit (kept so the API can answer user_session_limit); deleted: DELETE /sessions/<id>. */
export type SessionState = 'active' | 'refused' | 'deleted';

export interface StoredSession {
  id: string;
  /** The exit id it is pinned to. */
  exit: string;
  /** ms since the epoch, as far as the log knows (creation, then the touches). */
  lastUsed: number;
  state: SessionState;
}

/**
 * The proxy sessions of every user (the API key id), written only by the projection, in
 * the order of the user's partition. Decision reads (`stored`, `countActive`) see the
 * changes of the batch being applied; `session` and `active` are the reads of the proxy.
 * Applying an event again changes nothing: a session is inserted once (first write wins),
 * touches keep the newest use, a delete only marks an active session.
 */
export interface ProxySessionsView {
  /** Decision read: the user's session with this id, in any state. */
  stored(user: string, id: string): Promise<StoredSession | null>;
  /** Decision read: how many of the user's sessions are active. */
  countActive(user: string): Promise<number>;
  /** Forgets the user's sessions (in any state) last used before `before`. */
  purge(at: LogPosition, user: string, before: number): Promise<void>;
  /** Stores a new session; an id the user already has is left as it is. */
  insert(at: LogPosition, user: string, session: StoredSession): Promise<void>;
  /** Raises the last use of the user's sessions (only ever forward). */
  touch(at: LogPosition, user: string, lastUsed: Record<string, number>): Promise<void>;
  /** Marks the user's session deleted, if it is active. */
  delete(at: LogPosition, user: string, id: string): Promise<void>;

  /** The user's session with this id, in any state. */
  session(user: string, id: string): Promise<StoredSession | null>;
  /** The user's active sessions (expired or not: expiry is judged by the reader, with its own last uses), by id. */
  active(user: string): Promise<StoredSession[]>;
}
