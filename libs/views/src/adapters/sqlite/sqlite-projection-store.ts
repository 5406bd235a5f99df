import Database from 'better-sqlite3';
import { LoggedEvent, LogPosition, ThreadSignal } from '@crawlhub/eventlog';
import { applyFrom, SerialQueue } from '../../apply-in-order';
import { ProjectionFailedError, ProjectionStore } from '../../projection-store.port';
import { SqliteViewDatabase } from './sqlite-view-database';
import { Clock } from '@crawlhub/contracts';

/**
 * Checkpoints live in the view database, so a batch's view changes and its checkpoint
 * commit in one SQLite transaction. The log's own group offsets are only a hint.
 */
export class SqliteProjectionStore implements ProjectionStore {
  private readonly progressed: ThreadSignal;
  private readonly queue = new SerialQueue();
  private isFailure: Database.Statement | null = null;

  constructor(private readonly views: SqliteViewDatabase, private readonly clock: Clock, private readonly pollMs = 20) {
    views.defineSchema(`CREATE TABLE IF NOT EXISTS projection_checkpoints (
      topic TEXT NOT NULL, partition INTEGER NOT NULL, next_offset INTEGER NOT NULL,
      PRIMARY KEY (topic, partition)) WITHOUT ROWID`);
    views.defineSchema(`CREATE TABLE IF NOT EXISTS projection_failures (
      topic TEXT NOT NULL, partition INTEGER NOT NULL, offset INTEGER NOT NULL,
      event_id TEXT NOT NULL, type TEXT NOT NULL, key TEXT NOT NULL, error TEXT NOT NULL, failed_at INTEGER NOT NULL,
      PRIMARY KEY (topic, partition, offset)) WITHOUT ROWID`);
    this.progressed = new ThreadSignal(`crawlhub:views:${views.file}`);
  }

  applyBatch(topic: string, partition: number, events: LoggedEvent[], apply: (e: LoggedEvent) => Promise<void>): Promise<void> {
    // One writer connection: batches are applied one after another, never interleaved.
    return this.queue.run(() => this.applyNow(topic, partition, events, apply));
  }

  private async applyNow(topic: string, partition: number, events: LoggedEvent[], apply: (e: LoggedEvent) => Promise<void>) {
    const db = this.views.writer;
    db.exec('BEGIN IMMEDIATE');
    try {
      const next = this.read(db, topic, partition);
      const last = await applyFrom(events, next, apply);
      if (last >= next) {
        db.prepare(
          `INSERT INTO projection_checkpoints (topic, partition, next_offset) VALUES (?, ?, ?)
           ON CONFLICT (topic, partition) DO UPDATE SET next_offset = excluded.next_offset`,
        ).run(topic, partition, last + 1);
      }
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
    this.progressed.notify();
  }

  skipFailed(e: LoggedEvent, error: string): Promise<void> {
    return this.queue.run(async () => {
      const db = this.views.writer;
      db.transaction(() => {
        if (e.offset < this.read(db, e.topic, e.partition)) return;
        db.prepare(
          `INSERT OR REPLACE INTO projection_failures (topic, partition, offset, event_id, type, key, error, failed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(e.topic, e.partition, e.offset, e.event.id, e.event.type, e.event.key, error, this.clock.now());
        db.prepare(
          `INSERT INTO projection_checkpoints (topic, partition, next_offset) VALUES (?, ?, ?)
           ON CONFLICT (topic, partition) DO UPDATE SET next_offset = excluded.next_offset`,
        ).run(e.topic, e.partition, e.offset + 1);
      }).immediate();
      this.progressed.notify();
    });
  }

  /** The file is busy, full, unreadable or read-only: the store's trouble, not the event's. */
  isStoreFailure(error: unknown): boolean {
    return error instanceof Database.SqliteError && /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|READONLY|NOMEM|PROTOCOL|INTERRUPT|NOTADB|CORRUPT)/.test(error.code);
  }

  private read(db: SqliteViewDatabase['reader'], topic: string, partition: number): number {
    const row = db.prepare('SELECT next_offset FROM projection_checkpoints WHERE topic = ? AND partition = ?').get(topic, partition) as
      | { next_offset: number }
      | undefined;
    return row?.next_offset ?? 0;
  }

  async allCheckpoints(): Promise<Map<string, number>> {
    const rows = this.views.reader.prepare('SELECT topic, partition, next_offset FROM projection_checkpoints').all() as { topic: string; partition: number; next_offset: number }[];
    return new Map(rows.map((r) => [`${r.topic}:${r.partition}`, r.next_offset]));
  }

  async nextOffset(topic: string, partition: number): Promise<number> {
    return this.read(this.views.reader, topic, partition);
  }

  async waitFor(positions: LogPosition[], timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    const done = () => positions.every((p) => this.read(this.views.reader, p.topic, p.partition) > p.offset);
    while (!done()) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      // Woken by a projector in this process (any thread), or by polling when it runs elsewhere.
      await this.progressed.wait(Math.min(left, this.pollMs));
    }
    this.isFailure ??= this.views.reader.prepare('SELECT 1 FROM projection_failures WHERE topic = ? AND partition = ? AND offset = ?');
    const failed = positions.filter((p) => this.isFailure!.get(p.topic, p.partition, p.offset) !== undefined);
    if (failed.length) throw new ProjectionFailedError(failed);
    return true;
  }

  nextChange(timeoutMs: number): Promise<void> {
    return this.progressed.wait(timeoutMs);
  }

  async reset(): Promise<void> {
    await this.queue.idle();
    this.views.dropAll();
  }

  async close(): Promise<void> {
    await this.queue.idle();
    this.progressed.close();
  }
}
