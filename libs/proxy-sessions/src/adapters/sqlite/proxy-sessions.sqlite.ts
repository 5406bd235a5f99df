import { Inject, Injectable } from '@nestjs/common';
import type { Database, Statement } from 'better-sqlite3';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import { DecidedSession, ProxySessionsView, SessionState, StoredSession } from '../../ports/proxy-sessions.view';

interface Row {
  id: string;
  exit: string;
  last_used: number;
  state: SessionState;
}

const sessionOf = (r: Row): StoredSession => ({ id: r.id, exit: r.exit, lastUsed: r.last_used, state: r.state });

/**
 * One row per (user, session id) in `proxy_session_states` (the release that decided while
 * projecting kept them in `proxy_sessions`: see builtBeforeFacts), and the decided-through
 * mark per partition in `proxy_session_decided`; `deleted_o` is the offset of the delete
 * of a deleted session (a decision of a request before it still counts the session). Decision reads and the fold go through the
 * writer (inside the projector's transaction they see the batch applied so far), the
 * proxy's reads through the reader. The checkpoint already makes re-application impossible
 * here; the write-once rules mirror the MongoDB adapter.
 */
@Injectable()
export class ProxySessionsSqlite implements ProxySessionsView {
  private readonly st: Record<string, Statement>;
  private readonly w: Database;

  constructor(@Inject(SqliteViewDatabase) views: SqliteViewDatabase) {
    views.defineSchema(`
      CREATE TABLE IF NOT EXISTS proxy_session_states (
        user TEXT NOT NULL, id TEXT NOT NULL, exit TEXT NOT NULL, last_used INTEGER NOT NULL, state TEXT NOT NULL, deleted_o INTEGER,
        PRIMARY KEY (user, id)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS proxy_session_states_idle ON proxy_session_states (user, last_used);
      CREATE INDEX IF NOT EXISTS proxy_session_states_active ON proxy_session_states (user, state, last_used);
      CREATE TABLE IF NOT EXISTS proxy_session_decided (partition INTEGER PRIMARY KEY, request_offset INTEGER NOT NULL);
    `);
    const w = (this.w = views.writer);
    const r = views.reader;
    this.st = {
      decided: w.prepare(`SELECT 1 FROM proxy_session_states WHERE user = ? AND id = ? AND exit <> ''`),
      idle: w.prepare('SELECT id FROM proxy_session_states WHERE user = ? AND last_used < ? ORDER BY last_used, id LIMIT ?'),
      countActive: w.prepare(
        `SELECT count(*) AS n FROM proxy_session_states
         WHERE user = ? AND last_used >= ? AND (state = 'active' OR (state = 'deleted' AND exit <> '' AND deleted_o > ?))`,
      ),
      decidedThrough: w.prepare('SELECT request_offset FROM proxy_session_decided WHERE partition = ?'),
      markDecided: w.prepare(
        `INSERT INTO proxy_session_decided (partition, request_offset) VALUES (?, ?)
         ON CONFLICT (partition) DO UPDATE SET request_offset = MAX(request_offset, excluded.request_offset)`,
      ),
      forget: w.prepare('DELETE FROM proxy_session_states WHERE user = ? AND id = ?'),
      putDecided: w.prepare(
        `INSERT INTO proxy_session_states (user, id, exit, last_used, state) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (user, id) DO UPDATE SET exit = excluded.exit, last_used = MAX(last_used, excluded.last_used),
           state = CASE state WHEN 'deleted' THEN 'deleted' ELSE excluded.state END
         WHERE exit = ''`,
      ),
      touch: w.prepare(
        `INSERT INTO proxy_session_states (user, id, exit, last_used, state) VALUES (?, ?, '', ?, 'pending')
         ON CONFLICT (user, id) DO UPDATE SET last_used = MAX(last_used, excluded.last_used)`,
      ),
      delete: w.prepare(
        `INSERT INTO proxy_session_states (user, id, exit, last_used, state, deleted_o) VALUES (?, ?, '', ?, 'deleted', ?)
         ON CONFLICT (user, id) DO UPDATE SET state = 'deleted', deleted_o = excluded.deleted_o WHERE state IN ('active', 'pending')`,
      ),
      session: r.prepare('SELECT id, exit, last_used, state FROM proxy_session_states WHERE user = ? AND id = ?'),
      active: r.prepare(`SELECT id, exit, last_used, state FROM proxy_session_states WHERE user = ? AND state = 'active' ORDER BY id`),
    };
  }

  async decided(user: string, id: string): Promise<boolean> {
    return this.st.decided.get(user, id) !== undefined;
  }

  async idle(user: string, before: number, max: number): Promise<string[]> {
    return (this.st.idle.all(user, before, max) as { id: string }[]).map((r) => r.id);
  }

  async countActive(user: string, since: number, requestOffset: number): Promise<number> {
    return (this.st.countActive.get(user, since, requestOffset) as { n: number }).n;
  }

  async decidedThrough(partition: number): Promise<number> {
    return (this.st.decidedThrough.get(partition) as { request_offset: number } | undefined)?.request_offset ?? -1;
  }

  async markDecided(_at: LogPosition, partition: number, requestOffset: number): Promise<void> {
    this.st.markDecided.run(partition, requestOffset);
  }

  async builtBeforeFacts(): Promise<boolean> {
    // A replay drops every table, and the schema no longer makes that one.
    return this.w.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'proxy_sessions'`).get() !== undefined;
  }

  async forget(_at: LogPosition, user: string, ids: string[]): Promise<void> {
    for (const id of ids) this.st.forget.run(user, id);
  }

  async putDecided(_at: LogPosition, user: string, s: DecidedSession): Promise<void> {
    this.st.putDecided.run(user, s.id, s.exit, s.lastUsed, s.state);
  }

  async touch(_at: LogPosition, user: string, lastUsed: Record<string, number>): Promise<void> {
    for (const [id, ms] of Object.entries(lastUsed)) this.st.touch.run(user, id, ms);
  }

  async delete(at: LogPosition, user: string, id: string, when: number): Promise<void> {
    this.st.delete.run(user, id, when, at.offset);
  }

  async session(user: string, id: string): Promise<StoredSession | null> {
    const row = this.st.session.get(user, id) as Row | undefined;
    return row ? sessionOf(row) : null;
  }

  async active(user: string): Promise<StoredSession[]> {
    return (this.st.active.all(user) as Row[]).map(sessionOf);
  }
}
