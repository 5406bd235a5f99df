import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { WalCheckpointer } from '@crawlhub/eventlog';

/**
 * The embedded view store: one SQLite file in WAL mode. The projector writes through
 * `writer` inside one transaction per batch; HTTP reads use `reader`, a second
 * connection, so they never see a half-applied batch. The WAL is checkpointed on a
 * thread of its own while the process runs (WalCheckpointer).
 */
export class SqliteViewDatabase {
  readonly writer: Database.Database;
  readonly reader: Database.Database;
  private readonly schemas: string[] = [];
  private readonly checkpointer: WalCheckpointer | null;
  private readonly writerStatements = new Map<string, Database.Statement>();

  constructor(readonly file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.writer = open(file);
    this.reader = file === ':memory:' ? this.writer : open(file);
    this.checkpointer = file === ':memory:' ? null : new WalCheckpointer(file);
  }

  /** A statement of the writer, prepared once: on the projector's hot path preparing costs more than running. */
  writerStatement(sql: string): Database.Statement {
    let st = this.writerStatements.get(sql);
    if (!st) {
      st = this.writer.prepare(sql);
      this.writerStatements.set(sql, st);
    }
    return st;
  }

  /** Views declare their tables here; they are created now and again after a reset. */
  defineSchema(sql: string): void {
    this.schemas.push(sql);
    this.writer.exec(sql);
  }

  dropAll(): void {
    const tables = this.writer.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[];
    this.writer.transaction(() => {
      for (const t of tables) this.writer.exec(`DROP TABLE IF EXISTS "${t.name}"`);
    })();
    for (const sql of this.schemas) this.writer.exec(sql);
  }

  async close(): Promise<void> {
    if (this.reader !== this.writer) this.reader.close();
    this.writer.close();
    await this.checkpointer?.close();
  }
}

const PAGE_SIZE = 16384;

function open(file: string): Database.Database {
  const db = new Database(file);
  db.pragma(`page_size = ${PAGE_SIZE}`);
  db.pragma('journal_mode = WAL');
  // Checkpoints run on the checkpointer's thread, not inside the projector's commits.
  db.pragma(`wal_autocheckpoint = ${WalCheckpointer.backstopPages(PAGE_SIZE)}`);
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 10000');
  // 16 MB of pages per connection. Each thread that uses the views (the HTTP thread, the
  // projector's) holds a writer and a reader, and a cache fills to its bound whatever the
  // load: at 64 MB each, a platform ingesting 5 M items peaked at 441 MB RSS (the bound is
  // 400 MB, docs/storage-api.md). Appends of records touch only the right edge of the b-trees.
  db.pragma('cache_size = -16384');
  return db;
}
