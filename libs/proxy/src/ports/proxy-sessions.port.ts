import { ProxyError } from '../domain/proxy-errors';

/** The proxy's sessions (a session pins requests to one exit); `user` is the API key id. */
export const PROXY_SESSIONS = Symbol('PROXY_SESSIONS');

export interface ProxySessions {
  /** A new session of `user` pinned to the exit; its id. Throws ProxyError user_session_limit at the key's limit. */
  create(user: string, exitId: string): Promise<string>;
  /** The exit id a session of `user` is pinned to (the use restarts its idle timer), or null when there is no such session (unknown, expired, deleted, another key's). */
  exitOf(user: string, sessionId: string): Promise<string | null>;
  /** The user's active sessions: id -> exit id. */
  list(user: string): Promise<Record<string, string>>;
  /** Deletes the user's session; false when there is no such session. */
  delete(user: string, sessionId: string): Promise<boolean>;
}

/** No sessions (when none are bound): every id is unknown (400 bad_session_id), and none can be created. */
export class NoSessions implements ProxySessions {
  async create(): Promise<string> {
    throw new ProxyError('bad_session_id');
  }
  async exitOf(): Promise<string | null> {
    return null;
  }
  async list(): Promise<Record<string, string>> {
    return {};
  }
  async delete(): Promise<boolean> {
    return false;
  }
}
