import { MAX_FORGOTTEN_PER_DECISION, ProxySessionCreated, ProxySessionDecided } from '@crawlhub/contracts';

/** Bumped with any change of the rules below, so each fact says which rules decided it. */
export const PROXY_SESSIONS_DECIDER_VERSION = 1;

/** What the decider reads: the fold of the user's facts and plain events before the request. */
export interface SessionsState {
  /** Whether the user has a session of this id that a decision made (in any state). */
  decided(user: string, id: string): Promise<boolean>;
  /** The user's sessions (any state) last used before `before`, oldest first, at most `max`. */
  idle(user: string, before: number, max: number): Promise<string[]>;
  /**
   * How many of the user's sessions were active at the request at `requestOffset` and were
   * last used at `since` or later: active ones, and those deleted by an event after that
   * offset (the views may have folded it already: a delete appended while the request waited).
   */
  countActive(user: string, since: number, requestOffset: number): Promise<number>;
}

export type SessionDecision = Pick<ProxySessionDecided, 'outcome' | 'forgotten'>;

/**
 * The rules of a create request: an id the user already has is a duplicate (first write
 * wins); else the user's sessions idle at the request's time (last used more than `idleMs`
 * before it) are forgotten (the oldest, up to MAX_FORGOTTEN_PER_DECISION: the rest are not
 * counted either, and go with later decisions), and the session is active if fewer than
 * `limit` of the user's other sessions were active at the request (in log order), else
 * refused. Limit and idle time come
 * from the request, as the proxy that took it was configured.
 */
export async function decideSessionCreate(state: SessionsState, request: ProxySessionCreated, requestOffset: number): Promise<SessionDecision> {
  if (await state.decided(request.user, request.id)) return { outcome: 'duplicate', forgotten: [] };
  const idleBefore = request.at - request.idleMs;
  const forgotten = await state.idle(request.user, idleBefore, MAX_FORGOTTEN_PER_DECISION);
  const active = await state.countActive(request.user, idleBefore, requestOffset);
  return { outcome: active < request.limit ? 'active' : 'refused', forgotten };
}
