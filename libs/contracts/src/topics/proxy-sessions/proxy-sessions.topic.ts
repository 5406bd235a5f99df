import { z } from 'zod';
import { defineTopic, eventProblemIn, MILLIS, USER_ID } from '../../topic-contract';

/**
 * Topic `proxy-sessions`: the smart proxy's sessions (a session pins requests to one
 * exit). Key: the user (the API key id `key-…` the proxy authenticated), so one user's
 * sessions are one ordered stream with a single decider: the projection decides, when it
 * applies `created`, whether the user is under the session limit. `limit` and `idleMs`
 * travel in the event, so a replay decides the same.
 */
export const PROXY_SESSIONS_TOPIC = 'proxy-sessions';

/**
 * A session asked for (X-Proxy-Session: create, or POST /sessions). When applied: the
 * user's sessions last used before `at - idleMs` are forgotten; then the session is
 * active if the user has fewer than `limit` active sessions, else it is recorded as
 * refused (the proxy answers 400 user_session_limit). An id the user already has is
 * left as it is (first write wins).
 */
export const PROXY_SESSION_CREATED = 'proxy-sessions.created';
/** Decimal digits, random. */
const SESSION_ID = z.string().regex(/^[1-9][0-9]{0,19}$/, 'decimal digits');
const PROXY_SESSION_CREATED_DATA = z.object({
  user: USER_ID,
  id: SESSION_ID,
  /** The exit id the session is pinned to (the X-Proxy-Slave value). */
  exit: z.string().min(1),
  /** When it was asked for (ms since the epoch); also its first use. */
  at: MILLIS,
  limit: MILLIS,
  idleMs: MILLIS,
});
export type ProxySessionCreated = z.infer<typeof PROXY_SESSION_CREATED_DATA>;

/** Last uses of some of the user's sessions (one event per user per flush of a proxy process); a use older than the stored one changes nothing. */
export const PROXY_SESSIONS_TOUCHED = 'proxy-sessions.touched';
const PROXY_SESSIONS_TOUCHED_DATA = z.object({
  user: USER_ID,
  /** session id -> last use, ms since the epoch. */
  lastUsed: z.record(SESSION_ID, MILLIS),
});
export type ProxySessionsTouched = z.infer<typeof PROXY_SESSIONS_TOUCHED_DATA>;

/** DELETE /sessions/<id>. */
export const PROXY_SESSION_DELETED = 'proxy-sessions.deleted';
const PROXY_SESSION_DELETED_DATA = z.object({ user: USER_ID, id: SESSION_ID });
export type ProxySessionDeleted = z.infer<typeof PROXY_SESSION_DELETED_DATA>;

export type ProxySessionEvent =
  | { type: typeof PROXY_SESSION_CREATED; data: ProxySessionCreated }
  | { type: typeof PROXY_SESSIONS_TOUCHED; data: ProxySessionsTouched }
  | { type: typeof PROXY_SESSION_DELETED; data: ProxySessionDeleted };

/** The key is the data's user: one user's sessions have one decider. */
export const PROXY_SESSIONS_CONTRACT = defineTopic(
  [PROXY_SESSIONS_TOPIC],
  { [PROXY_SESSION_CREATED]: PROXY_SESSION_CREATED_DATA, [PROXY_SESSIONS_TOUCHED]: PROXY_SESSIONS_TOUCHED_DATA, [PROXY_SESSION_DELETED]: PROXY_SESSION_DELETED_DATA },
  (_type, d) => d.user,
);

/** Why an event of the topic is malformed, or null: the projection skips (and reports) a malformed event instead of deciding on it. */
export function proxySessionEventProblem(e: { type: string; key: string; data: unknown }): string | null {
  return eventProblemIn(PROXY_SESSIONS_CONTRACT, e);
}
