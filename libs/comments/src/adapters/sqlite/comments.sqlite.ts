import { Inject, Injectable } from '@nestjs/common';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import { CommentTarget, JobCommentStats, StoredComment } from '../../domain/comment';
import { CommentsView } from '../../ports/comments.view';

interface Row {
  id: number;
  project: number;
  spider: number;
  job: number;
  item: number;
  field: string;
  author: string;
  text: string;
  created: number;
  archived: number | null;
}

const COLUMNS = 'id, project, spider, job, item, field, author, text, created, archived';

/** `field` is '' for a comment on the whole item (a field route never has an empty name). */
const toComment = (r: Row): StoredComment => ({
  id: r.id,
  project: r.project,
  spider: r.spider,
  job: r.job,
  item: r.item,
  field: r.field === '' ? null : r.field,
  author: r.author,
  text: r.text,
  created: r.created,
  archived: r.archived,
});

const targetArgs = (t: CommentTarget) => [t.project, t.spider, t.job, t.item, t.field ?? ''];
const TARGET = 'project = ? AND spider = ? AND job = ? AND item = ? AND field = ?';

/** Written inside the projection store's transaction, with the checkpoint. */
@Injectable()
export class CommentsSqlite implements CommentsView {
  constructor(@Inject(SqliteViewDatabase) private readonly views: SqliteViewDatabase) {
    views.defineSchema(`CREATE TABLE IF NOT EXISTS comments (
      id INTEGER PRIMARY KEY, project INTEGER NOT NULL, spider INTEGER NOT NULL, job INTEGER NOT NULL,
      item INTEGER NOT NULL, field TEXT NOT NULL, author TEXT NOT NULL, text TEXT NOT NULL,
      created INTEGER NOT NULL, archived INTEGER, archived_by TEXT);
      CREATE INDEX IF NOT EXISTS comments_by_target ON comments (project, spider, job, item, field, id)`);
  }

  async add(_at: LogPosition, c: StoredComment): Promise<void> {
    this.views.writer
      .prepare(`INSERT OR IGNORE INTO comments (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(c.id, c.project, c.spider, c.job, c.item, c.field ?? '', c.author, c.text, c.created, c.archived);
  }

  async edit(_at: LogPosition, project: number, id: number, text: string): Promise<void> {
    this.views.writer.prepare('UPDATE comments SET text = ? WHERE id = ? AND project = ?').run(text, id, project);
  }

  async archive(_at: LogPosition, target: CommentTarget, archived: number, by: string): Promise<void> {
    this.views.writer
      .prepare(`UPDATE comments SET archived = ?, archived_by = ? WHERE ${TARGET} AND archived IS NULL`)
      .run(archived, by, ...targetArgs(target));
  }

  async remove(_at: LogPosition, project: number, id: number): Promise<void> {
    this.views.writer.prepare('DELETE FROM comments WHERE id = ? AND project = ?').run(id, project);
  }

  async get(id: number): Promise<StoredComment | null> {
    const row = this.views.reader.prepare(`SELECT ${COLUMNS} FROM comments WHERE id = ?`).get(id) as Row | undefined;
    return row ? toComment(row) : null;
  }

  async ofJob(job: { project: number; spider: number; job: number }): Promise<StoredComment[]> {
    const rows = this.views.reader
      .prepare(`SELECT ${COLUMNS} FROM comments WHERE project = ? AND spider = ? AND job = ? ORDER BY item, field, id`)
      .all(job.project, job.spider, job.job) as Row[];
    return rows.map(toComment);
  }

  async ofTarget(target: CommentTarget): Promise<StoredComment[]> {
    const rows = this.views.reader.prepare(`SELECT ${COLUMNS} FROM comments WHERE ${TARGET} ORDER BY id`).all(...targetArgs(target)) as Row[];
    return rows.map(toComment);
  }

  async archivedBy(target: CommentTarget, by: string): Promise<StoredComment[]> {
    const rows = this.views.reader
      .prepare(`SELECT ${COLUMNS} FROM comments WHERE ${TARGET} AND archived_by = ? ORDER BY id`)
      .all(...targetArgs(target), by) as Row[];
    return rows.map(toComment);
  }

  async stats(project: number): Promise<JobCommentStats[]> {
    return this.views.reader
      .prepare(
        `SELECT spider, job, COUNT(DISTINCT item) AS items FROM comments
         WHERE project = ? AND archived IS NULL GROUP BY spider, job ORDER BY spider, job`,
      )
      .all(project) as JobCommentStats[];
  }
}
