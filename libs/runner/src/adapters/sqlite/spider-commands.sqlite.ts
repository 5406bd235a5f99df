import { Inject, Injectable } from '@nestjs/common';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import { RegisteredSpider } from '../../domain/spider-command';
import { SpiderCommandsView } from '../../ports/spider-commands.view';

/**
 * One row per (project, spider), the registration as JSON. Writes run inside the
 * projector's transaction with its checkpoint, so a replace or delete is applied once.
 */
@Injectable()
export class SpiderCommandsSqlite implements SpiderCommandsView {
  constructor(@Inject(SqliteViewDatabase) private readonly views: SqliteViewDatabase) {
    views.defineSchema(`
      CREATE TABLE IF NOT EXISTS spider_commands (
        project INTEGER NOT NULL, spider TEXT NOT NULL, doc TEXT NOT NULL,
        PRIMARY KEY (project, spider)) WITHOUT ROWID;
    `);
  }

  async register(_at: LogPosition, spiders: RegisteredSpider[]): Promise<void> {
    const put = this.views.writer.prepare('INSERT OR REPLACE INTO spider_commands (project, spider, doc) VALUES (?, ?, ?)');
    for (const s of spiders) put.run(s.project, s.spider, JSON.stringify(s));
  }

  async unregister(_at: LogPosition, project: number, spiders: string[]): Promise<void> {
    const del = this.views.writer.prepare('DELETE FROM spider_commands WHERE project = ? AND spider = ?');
    for (const s of spiders) del.run(project, s);
  }

  async list(project: number): Promise<RegisteredSpider[]> {
    const rows = this.views.reader.prepare('SELECT doc FROM spider_commands WHERE project = ? ORDER BY spider').all(project) as { doc: string }[];
    return rows.map((r) => JSON.parse(r.doc) as RegisteredSpider);
  }

  async get(project: number, spider: string): Promise<RegisteredSpider | null> {
    const row = this.views.reader.prepare('SELECT doc FROM spider_commands WHERE project = ? AND spider = ?').get(project, spider) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as RegisteredSpider) : null;
  }

  async projects(): Promise<number[]> {
    const rows = this.views.reader.prepare('SELECT DISTINCT project FROM spider_commands ORDER BY project').all() as { project: number }[];
    return rows.map((r) => r.project);
  }
}
