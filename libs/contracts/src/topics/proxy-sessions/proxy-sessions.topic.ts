import { z } from 'zod';
import { defineTopic, eventProblemIn, MILLIS, USER_ID } from '../../topic-contract';

/**
 * Topic `proxy-sessions`: the smart proxy's sessions (a session pins requests to one
 * exit). Key: the user (the API key id `key-…` the proxy authenticated), so one user's
 * sessions are one ordered stream with a single decider: `ProxySessionsDecider`
 * (libs/proxy-sessions, group `proxy-sessions-decider`) decides each create request and
 * appends what it decided as a `decided` fact, which the views fold; replay never decides
 * again. Touches and deletes are facts already (the proxy process decided them).
 */
export const PROXY_SESSIONS_TOPIC = 'proxy-sessions';

/**
 * The request for a session (X-Proxy-Session: create, or POST /sessions); its name is from
 * before decisions were facts. The decider decides it with the `limit` and `idleMs` it
 * carries: the user's sessions last used before `at - idleMs` are forgotten, then the
 * session is active if the user has fewer than `limit` active sessions, else refused (the
 * proxy answers 400 user_session_limit); an id the user already has is a duplicate (first
 * write wins). Nothing folds it: the views fold the decision.
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

/**
 * `proxy-sessions.decided`: what the user's decider decided for one create request, in the
 * request's partition (same key), on behalf of its actor, with its correlation id and the
 * request's event id as causation id. `outcome` (or `failed`: no try could decide it, its
 * caller gets an error); `forgotten`: the user's sessions it found idle and forgot (the
 * oldest, at most MAX_FORGOTTEN_PER_DECISION: the others are forgotten by later decisions,
 * and never counted). The fold applies the first fact of a request (by `requestOffset`)
 * and ignores a later one, so a decision takes effect once.
 */
export const PROXY_SESSION_DECIDED = 'proxy-sessions.decided';
export const MAX_FORGOTTEN_PER_DECISION = 500;
const PROXY_SESSION_DECIDED_DATA = z
  .object({
    user: USER_ID,
    id: SESSION_ID,
    exit: z.string().min(1),
    /** The request's offset in the partition both share: the decider's decided-through mark. */
    requestOffset: z.number().int().nonnegative(),
    /** The request's `at`: the session's first use. */
    requestedAt: MILLIS,
    /** Bumped whenever the decider's rules change, so the log says which rules decided. */
    deciderVersion: z.number().int().positive(),
    outcome: z.enum(['active', 'refused', 'duplicate']).optional(),
    forgotten: z.array(SESSION_ID).max(MAX_FORGOTTEN_PER_DECISION),
    failed: z.string().optional(),
  })
  .refine((d) => (d.outcome === undefined) !== (d.failed === undefined), 'either an outcome or failed');
export type ProxySessionDecided = z.infer<typeof PROXY_SESSION_DECIDED_DATA>;

export type ProxySessionEvent =
  | { type: typeof PROXY_SESSION_CREATED; data: ProxySessionCreated }
  | { type: typeof PROXY_SESSIONS_TOUCHED; data: ProxySessionsTouched }
  | { type: typeof PROXY_SESSION_DELETED; data: ProxySessionDeleted }
  | { type: typeof PROXY_SESSION_DECIDED; data: ProxySessionDecided };

/** The key is the data's user: one user's sessions have one decider. */
export const PROXY_SESSIONS_CONTRACT = defineTopic(
  [PROXY_SESSIONS_TOPIC],
  { [PROXY_SESSION_CREATED]: PROXY_SESSION_CREATED_DATA, [PROXY_SESSIONS_TOUCHED]: PROXY_SESSIONS_TOUCHED_DATA, [PROXY_SESSION_DELETED]: PROXY_SESSION_DELETED_DATA, [PROXY_SESSION_DECIDED]: PROXY_SESSION_DECIDED_DATA },
  (_type, d) => d.user,
);

/** Why an event of the topic is malformed, or null: the decider does not decide a malformed request, the projector skips (and reports) a malformed event. */
export function proxySessionEventProblem(e: { type: string; key: string; data: unknown }): string | null {
  return eventProblemIn(PROXY_SESSIONS_CONTRACT, e);
}
