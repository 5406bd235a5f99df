/** The proxy's sessions (a session pins requests to one exit). */
export const PROXY_SESSIONS = Symbol('PROXY_SESSIONS');

export interface ProxySessions {
  /** The exit id a session of `user` is pinned to, or null when there is no such session. */
  exitOf(user: string, sessionId: string): Promise<string | null>;
}

/** No sessions yet: every session id is unknown (400 bad_session_id). */
export class NoSessions implements ProxySessions {
  async exitOf(): Promise<string | null> {
    return null;
  }
}
