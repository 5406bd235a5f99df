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
export interface ProxySessionCreated {
  user: string;
  /** Decimal digits, random. */
  id: string;
  /** The exit id the session is pinned to (the X-Proxy-Slave value). */
  exit: string;
  /** When it was asked for (ms since the epoch); also its first use. */
  at: number;
  limit: number;
  idleMs: number;
}

/** Last uses of some of the user's sessions (one event per user per flush of a proxy process); a use older than the stored one changes nothing. */
export const PROXY_SESSIONS_TOUCHED = 'proxy-sessions.touched';
export interface ProxySessionsTouched {
  user: string;
  /** session id -> last use, ms since the epoch. */
  lastUsed: Record<string, number>;
}

/** DELETE /sessions/<id>. */
export const PROXY_SESSION_DELETED = 'proxy-sessions.deleted';
export interface ProxySessionDeleted {
  user: string;
  id: string;
}

export type ProxySessionEvent =
  | { type: typeof PROXY_SESSION_CREATED; data: ProxySessionCreated }
  | { type: typeof PROXY_SESSIONS_TOUCHED; data: ProxySessionsTouched }
  | { type: typeof PROXY_SESSION_DELETED; data: ProxySessionDeleted };

const SESSION_ID = /^[1-9][0-9]{0,19}$/;
const USER = /^[A-Za-z0-9_.:-]{1,128}$/;

function isTime(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) >= 0;
}

/**
 * Why an event of the topic is malformed, or null when it is good: the key must be the
 * data's user, ids decimal, times and limits non-negative integers. The projection skips
 * (and reports) a malformed event instead of deciding on it.
 */
export function proxySessionEventProblem(e: { type: string; key: string; data: unknown }): string | null {
  const d = e.data as Record<string, unknown> | null;
  if (typeof d !== 'object' || d === null) return 'data is not an object';
  if (typeof d.user !== 'string' || !USER.test(d.user)) return 'bad user';
  if (e.key !== d.user) return 'the key is not the user';
  switch (e.type) {
    case PROXY_SESSION_CREATED:
      if (typeof d.id !== 'string' || !SESSION_ID.test(d.id)) return 'bad session id';
      if (typeof d.exit !== 'string' || d.exit === '') return 'bad exit';
      if (!isTime(d.at) || !isTime(d.idleMs) || !isTime(d.limit)) return 'bad at, limit or idleMs';
      return null;
    case PROXY_SESSIONS_TOUCHED: {
      const touched = d.lastUsed as Record<string, unknown> | null;
      if (typeof touched !== 'object' || touched === null || Array.isArray(touched)) return 'bad lastUsed';
      for (const [id, at] of Object.entries(touched)) if (!SESSION_ID.test(id) || !isTime(at)) return `bad last use of ${id}`;
      return null;
    }
    case PROXY_SESSION_DELETED:
      return typeof d.id === 'string' && SESSION_ID.test(d.id) ? null : 'bad session id';
    default:
      return `unknown type ${e.type}`;
  }
}
