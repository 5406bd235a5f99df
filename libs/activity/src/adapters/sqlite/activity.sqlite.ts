import { Inject, Injectable } from '@nestjs/common';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import { ActivityMessage, ActivityScan, ActivityView, StoredActivity } from '../../ports/activity.view';

/**
 * Activity messages in one table whose primary key is the read order (project, ts, o, n,
 * id): a project's newest-first page is one backwards index range. A unique index on the
 * id makes recording idempotent (INSERT OR IGNORE).
 */
@Injectable()
export class ActivitySqlite implements ActivityView {
  constructor(@Inject(SqliteViewDatabase) private readonly views: SqliteViewDatabase) {
    views.defineSchema(`
      CREATE TABLE IF NOT EXISTS activity (
        project INTEGER NOT NULL, ts INTEGER NOT NULL, o INTEGER NOT NULL, n INTEGER NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL,
        PRIMARY KEY (project, ts, o, n, id)) WITHOUT ROWID;
      CREATE UNIQUE INDEX IF NOT EXISTS activity_id ON activity (id);
    `);
  }

  async record(at: LogPosition, project: number, messages: ActivityMessage[]): Promise<void> {
    const insert = this.views.writer.prepare('INSERT OR IGNORE INTO activity (project, ts, o, n, id, data) VALUES (?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      insert.run(project, m.ts, at.offset, i, m.id, m.json);
    }
  }

  async scan(q: ActivityScan): Promise<StoredActivity[]> {
    if (q.limit <= 0) return [];
    const b = q.before;
    const rows = (
      b
        ? this.views.reader
            .prepare(
              `SELECT project, ts, o, n, id, data AS json FROM activity WHERE project = ? AND (ts, o, n, id) < (?, ?, ?, ?)
               ORDER BY ts DESC, o DESC, n DESC, id DESC LIMIT ?`,
            )
            .all(q.project, b.ts, b.o, b.n, b.id, q.limit)
        : this.views.reader
            .prepare('SELECT project, ts, o, n, id, data AS json FROM activity WHERE project = ? ORDER BY ts DESC, o DESC, n DESC, id DESC LIMIT ?')
            .all(q.project, q.limit)
    ) as StoredActivity[];
    return rows;
  }

  async projects(): Promise<number[]> {
    // A skip scan over the primary key: one seek per project, not one row per message.
    const rows = this.views.reader
      .prepare(
        `WITH RECURSIVE ps(p) AS (
           SELECT MIN(project) FROM activity
           UNION ALL SELECT (SELECT MIN(project) FROM activity WHERE project > ps.p) FROM ps WHERE ps.p IS NOT NULL)
         SELECT p FROM ps WHERE p IS NOT NULL`,
      )
      .all() as { p: number }[];
    return rows.map((r) => r.p);
  }
}
