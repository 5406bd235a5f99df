import { Inject, Injectable } from '@nestjs/common';
import type { Statement } from 'better-sqlite3';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import { ProxySessionsView, SessionState, StoredSession } from '../../ports/proxy-sessions.view';

interface Row {
  id: string;
  exit: string;
  last_used: number;
  state: SessionState;
}

const sessionOf = (r: Row): StoredSession => ({ id: r.id, exit: r.exit, lastUsed: r.last_used, state: r.state });

/**
 * One row per (user, session id). Decision reads go through the writer (inside the
 * projector's transaction they see the batch applied so far), the proxy's reads through
 * the reader. `o` is the offset of the event that created the row: the checkpoint already
 * makes re-application impossible here, the insert-once rule mirrors the MongoDB adapter.
 */
@Injectable()
export class ProxySessionsSqlite implements ProxySessionsView {
  private readonly st: Record<string, Statement>;

  constructor(@Inject(SqliteViewDatabase) views: SqliteViewDatabase) {
    views.defineSchema(`
      CREATE TABLE IF NOT EXISTS proxy_sessions (
        user TEXT NOT NULL, id TEXT NOT NULL, exit TEXT NOT NULL, last_used INTEGER NOT NULL, state TEXT NOT NULL, o INTEGER NOT NULL,
        PRIMARY KEY (user, id)) WITHOUT ROWID;
    `);
    const w = views.writer;
    const r = views.reader;
    this.st = {
      storedW: w.prepare('SELECT id, exit, last_used, state FROM proxy_sessions WHERE user = ? AND id = ?'),
      countActive: w.prepare(`SELECT count(*) AS n FROM proxy_sessions WHERE user = ? AND state = 'active'`),
      purge: w.prepare('DELETE FROM proxy_sessions WHERE user = ? AND last_used < ?'),
      insert: w.prepare('INSERT OR IGNORE INTO proxy_sessions (user, id, exit, last_used, state, o) VALUES (?, ?, ?, ?, ?, ?)'),
      touch: w.prepare('UPDATE proxy_sessions SET last_used = max(last_used, ?) WHERE user = ? AND id = ?'),
      delete: w.prepare(`UPDATE proxy_sessions SET state = 'deleted' WHERE user = ? AND id = ? AND state = 'active'`),
      storedR: r.prepare('SELECT id, exit, last_used, state FROM proxy_sessions WHERE user = ? AND id = ?'),
      active: r.prepare(`SELECT id, exit, last_used, state FROM proxy_sessions WHERE user = ? AND state = 'active' ORDER BY id`),
    };
  }

  async stored(user: string, id: string): Promise<StoredSession | null> {
    const row = this.st.storedW.get(user, id) as Row | undefined;
    return row ? sessionOf(row) : null;
  }

  async countActive(user: string): Promise<number> {
    return (this.st.countActive.get(user) as { n: number }).n;
  }

  async purge(_at: LogPosition, user: string, before: number): Promise<void> {
    this.st.purge.run(user, before);
  }

  async insert(at: LogPosition, user: string, s: StoredSession): Promise<void> {
    this.st.insert.run(user, s.id, s.exit, s.lastUsed, s.state, at.offset);
  }

  async touch(_at: LogPosition, user: string, lastUsed: Record<string, number>): Promise<void> {
    for (const [id, ms] of Object.entries(lastUsed)) this.st.touch.run(ms, user, id);
  }

  async delete(_at: LogPosition, user: string, id: string): Promise<void> {
    this.st.delete.run(user, id);
  }

  async session(user: string, id: string): Promise<StoredSession | null> {
    const row = this.st.storedR.get(user, id) as Row | undefined;
    return row ? sessionOf(row) : null;
  }

  async active(user: string): Promise<StoredSession[]> {
    return (this.st.active.all(user) as Row[]).map(sessionOf);
  }
}
