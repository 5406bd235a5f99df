import { Inject, Injectable } from '@nestjs/common';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import { Schedule, SchedulesView } from '../../ports/schedules.view';

@Injectable()
export class SchedulesSqlite implements SchedulesView {
  constructor(@Inject(SqliteViewDatabase) private readonly views: SqliteViewDatabase) {
    views.defineSchema(`CREATE TABLE IF NOT EXISTS schedules (
      project INTEGER NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (project, id)) WITHOUT ROWID`);
  }

  async put(_at: LogPosition, s: Schedule): Promise<void> {
    this.views.writer.prepare('INSERT OR REPLACE INTO schedules (project, id, doc) VALUES (?, ?, ?)').run(s.project, s.id, JSON.stringify(s));
  }

  async remove(_at: LogPosition, project: number, id: string): Promise<void> {
    this.views.writer.prepare('DELETE FROM schedules WHERE project = ? AND id = ?').run(project, id);
  }

  async get(project: number, id: string): Promise<Schedule | null> {
    const row = this.views.writer.prepare('SELECT doc FROM schedules WHERE project = ? AND id = ?').get(project, id) as { doc: string } | undefined;
    return row ? JSON.parse(row.doc) : null;
  }

  async list(project?: number): Promise<Schedule[]> {
    const rows = (project === undefined
      ? this.views.reader.prepare('SELECT doc FROM schedules ORDER BY project, id').all()
      : this.views.reader.prepare('SELECT doc FROM schedules WHERE project = ? ORDER BY id').all(project)) as { doc: string }[];
    return rows.map((r) => JSON.parse(r.doc));
  }
}
