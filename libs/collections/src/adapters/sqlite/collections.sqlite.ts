import { Inject, Injectable } from '@nestjs/common';
import type { Database, Statement } from 'better-sqlite3';
import { CollectionRef, CollectionType } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import {
  CollectionRecordInput, compareKeys, isVersioned, lastWins, StoredCollectionRecord, typeId, typeOfId, unpackCollectionLine,
} from '../../domain/collection-record';
import { lastVersionToDrop } from '../../domain/collection-rules';
import { CollectionCommit, CollectionsView, CollectionWrite } from '../../ports/collections.view';

const CACHED_IDS = '(1, 3)';
const IN_CHUNK = 500;

interface Current {
  ts: number;
  ver: number;
  data: string;
}

/**
 * Collections on SQLite, written inside the projection store's transaction (so no
 * guard is needed: a batch and its checkpoint commit together). The current record of
 * each key is in `collection_records` (primary key (project, name, type, key): a scan is
 * one range of the primary key, in BINARY = UTF-8 byte order); older versions of vs/vcs
 * records are in `collection_versions`. Partial indexes on `_ts` of the cached types make
 * purging expired records a seek.
 */
@Injectable()
export class CollectionsSqlite implements CollectionsView {
  private statements: Record<string, Statement> | null = null;

  constructor(@Inject(SqliteViewDatabase) private readonly views: SqliteViewDatabase) {
    views.defineSchema(`
      CREATE TABLE IF NOT EXISTS collection_records (
        project INTEGER NOT NULL, name TEXT NOT NULL, type INTEGER NOT NULL, key TEXT NOT NULL,
        ts INTEGER NOT NULL, ver INTEGER NOT NULL, data TEXT NOT NULL,
        PRIMARY KEY (project, name, type, key)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS collection_records_expiry ON collection_records (project, ts) WHERE type IN ${CACHED_IDS};
      CREATE TABLE IF NOT EXISTS collection_versions (
        project INTEGER NOT NULL, name TEXT NOT NULL, type INTEGER NOT NULL, key TEXT NOT NULL, ver INTEGER NOT NULL,
        ts INTEGER NOT NULL, data TEXT NOT NULL,
        PRIMARY KEY (project, name, type, key, ver)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS collection_versions_expiry ON collection_versions (project, ts) WHERE type IN ${CACHED_IDS};
      CREATE TABLE IF NOT EXISTS collection_names (
        project INTEGER NOT NULL, name TEXT NOT NULL, type INTEGER NOT NULL,
        PRIMARY KEY (project, name, type)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS collection_staging (
        upload TEXT NOT NULL, seq INTEGER NOT NULL, lines TEXT NOT NULL,
        PRIMARY KEY (upload, seq)) WITHOUT ROWID;
    `);
  }

  /** The write statements, prepared once on the writer connection (a reset recreates the tables, not the connection). */
  private get w(): Record<string, Statement> {
    if (!this.statements) {
      const db: Database = this.views.writer;
      const K = 'project = ? AND name = ? AND type = ? AND key = ?';
      this.statements = {
        upsert: db.prepare(
          `INSERT INTO collection_records (project, name, type, key, ts, ver, data) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (project, name, type, key) DO UPDATE SET ts = excluded.ts, ver = excluded.ver, data = excluded.data`,
        ),
        current: db.prepare(`SELECT ts, ver, data FROM collection_records WHERE ${K}`),
        keepVersion: db.prepare('INSERT OR REPLACE INTO collection_versions (project, name, type, key, ver, ts, data) VALUES (?, ?, ?, ?, ?, ?, ?)'),
        dropVersions: db.prepare(`DELETE FROM collection_versions WHERE ${K} AND ver <= ?`),
        deleteRecord: db.prepare(`DELETE FROM collection_records WHERE ${K}`),
        deleteVersions: db.prepare(`DELETE FROM collection_versions WHERE ${K}`),
        register: db.prepare('INSERT OR IGNORE INTO collection_names (project, name, type) VALUES (?, ?, ?)'),
        purgeRecords: db.prepare(`DELETE FROM collection_records WHERE type IN ${CACHED_IDS} AND project = ? AND ts < ?`),
        purgeVersions: db.prepare(`DELETE FROM collection_versions WHERE type IN ${CACHED_IDS} AND project = ? AND ts < ?`),
      };
    }
    return this.statements;
  }

  async write(_at: LogPosition, w: CollectionWrite): Promise<void> {
    this.writeNow(w, w.records, w.ts, w.keepVersions);
  }

  private writeNow(ref: CollectionRef, records: CollectionRecordInput[], ts: number, keep: number): void {
    const t = typeId(ref.type);
    const s = this.w;
    if (records.length) s.register.run(ref.project, ref.name, t);
    if (!isVersioned(ref.type)) {
      for (const r of lastWins(records)) s.upsert.run(ref.project, ref.name, t, r.key, ts, 0, r.json);
      return;
    }
    for (const r of lastWins(records)) {
      const cur = s.current.get(ref.project, ref.name, t, r.key) as Current | undefined;
      let ver = 0;
      if (cur) {
        s.keepVersion.run(ref.project, ref.name, t, r.key, cur.ver, cur.ts, cur.data);
        ver = cur.ver + 1;
        const drop = lastVersionToDrop(ver, keep);
        if (drop >= 0) s.dropVersions.run(ref.project, ref.name, t, r.key, drop);
      }
      s.upsert.run(ref.project, ref.name, t, r.key, ts, ver, r.json);
    }
  }

  async stageChunk(_at: LogPosition, c: { project: number; upload: string; seq: number; lines: string[] }): Promise<void> {
    this.views.writer.prepare('INSERT OR REPLACE INTO collection_staging (upload, seq, lines) VALUES (?, ?, ?)').run(c.upload, c.seq, c.lines.join('\n'));
  }

  async commitUpload(_at: LogPosition, c: CollectionCommit): Promise<void> {
    const db = this.views.writer;
    // Chunk by chunk (the writes use the same connection, so no open cursor), in seq order.
    const chunk = db.prepare('SELECT lines FROM collection_staging WHERE upload = ? AND seq = ?');
    for (let seq = 0; ; seq++) {
      const row = chunk.get(c.upload, seq) as { lines: string } | undefined;
      if (!row) break;
      this.writeNow(c, row.lines.split('\n').map(unpackCollectionLine), c.ts, c.keepVersions);
    }
    db.prepare('DELETE FROM collection_staging WHERE upload = ?').run(c.upload);
  }

  async abortUpload(_at: LogPosition, c: { project: number; upload: string }): Promise<void> {
    this.views.writer.prepare('DELETE FROM collection_staging WHERE upload = ?').run(c.upload);
  }

  async deleteRecords(_at: LogPosition, ref: CollectionRef, keys: string[]): Promise<void> {
    const t = typeId(ref.type);
    const s = this.w;
    for (const key of keys) {
      s.deleteRecord.run(ref.project, ref.name, t, key);
      if (isVersioned(ref.type)) s.deleteVersions.run(ref.project, ref.name, t, key);
    }
  }

  async deleteCollection(_at: LogPosition, project: number, name: string): Promise<void> {
    const db = this.views.writer;
    db.prepare('DELETE FROM collection_records WHERE project = ? AND name = ?').run(project, name);
    db.prepare('DELETE FROM collection_versions WHERE project = ? AND name = ?').run(project, name);
    db.prepare('DELETE FROM collection_names WHERE project = ? AND name = ?').run(project, name);
  }

  async renameCollection(_at: LogPosition, project: number, name: string, newName: string): Promise<void> {
    if (name === newName) return;
    const db = this.views.writer;
    // A moved record replaces the record of the same key, history included.
    db.prepare(
      `DELETE FROM collection_versions WHERE project = ? AND name = ?
       AND (type, key) IN (SELECT type, key FROM collection_records WHERE project = ? AND name = ?)`,
    ).run(project, newName, project, name);
    db.prepare('UPDATE OR REPLACE collection_records SET name = ? WHERE project = ? AND name = ?').run(newName, project, name);
    db.prepare('UPDATE OR REPLACE collection_versions SET name = ? WHERE project = ? AND name = ?').run(newName, project, name);
    db.prepare('UPDATE OR REPLACE collection_names SET name = ? WHERE project = ? AND name = ?').run(newName, project, name);
  }

  async purgeExpired(_at: LogPosition, project: number, before: number): Promise<void> {
    // A seek on the partial indexes: nothing to do costs next to nothing.
    this.w.purgeRecords.run(project, before);
    this.w.purgeVersions.run(project, before);
  }

  async scan(ref: CollectionRef, range: { low: string; high: string | null; limit: number }): Promise<StoredCollectionRecord[]> {
    if (range.limit <= 0) return [];
    const sql = `SELECT key, ts, data AS json FROM collection_records WHERE project = ? AND name = ? AND type = ? AND key >= ?${
      range.high === null ? '' : ' AND key < ?'
    } ORDER BY key LIMIT ?`;
    const args: (string | number)[] = [ref.project, ref.name, typeId(ref.type), range.low];
    if (range.high !== null) args.push(range.high);
    args.push(range.limit);
    return this.views.reader.prepare(sql).all(...args) as StoredCollectionRecord[];
  }

  async getMany(ref: CollectionRef, keys: string[]): Promise<StoredCollectionRecord[]> {
    const out: StoredCollectionRecord[] = [];
    for (let i = 0; i < keys.length; i += IN_CHUNK) {
      const part = keys.slice(i, i + IN_CHUNK);
      const rows = this.views.reader
        .prepare(
          `SELECT key, ts, data AS json FROM collection_records WHERE project = ? AND name = ? AND type = ? AND key IN (${part.map(() => '?').join(',')}) ORDER BY key`,
        )
        .all(ref.project, ref.name, typeId(ref.type), ...part) as StoredCollectionRecord[];
      out.push(...rows);
    }
    return out;
  }

  async versions(ref: CollectionRef, key: string): Promise<StoredCollectionRecord[]> {
    const args = [ref.project, ref.name, typeId(ref.type), key];
    const db = this.views.reader;
    const K = 'project = ? AND name = ? AND type = ? AND key = ?';
    const current = db.prepare(`SELECT key, ts, data AS json FROM collection_records WHERE ${K}`).get(...args) as StoredCollectionRecord | undefined;
    if (!current) return [];
    const older = db.prepare(`SELECT key, ts, data AS json FROM collection_versions WHERE ${K} ORDER BY ver DESC`).all(...args) as StoredCollectionRecord[];
    return [current, ...older];
  }

  async list(project: number): Promise<{ type: CollectionType; name: string }[]> {
    const found = new Map<string, { name: string; type: number }>();
    const add = (row: { name: string; type: number }) => found.set(`${row.type}/${row.name}`, row);
    // Every collection written since the names were kept, emptied ones too...
    for (const row of this.views.reader.prepare('SELECT name, type FROM collection_names WHERE project = ?').all(project) as { name: string; type: number }[]) add(row);
    // ...and those written before, that hold records: one primary-key seek per collection (a skip scan).
    const next = this.views.reader.prepare(
      'SELECT name, type FROM collection_records WHERE project = ? AND (name, type) > (?, ?) ORDER BY name, type LIMIT 1',
    );
    let at: { name: string; type: number } = { name: '', type: -1 };
    for (;;) {
      const row = next.get(project, at.name, at.type) as { name: string; type: number } | undefined;
      if (!row) break;
      add(row);
      at = row;
    }
    return [...found.values()].map((r) => ({ name: r.name, type: typeOfId(r.type) })).sort((a, b) => compareKeys(a.name, b.name) || typeId(a.type) - typeId(b.type));
  }

  async exists(project: number, name: string): Promise<boolean> {
    const db = this.views.reader;
    return (
      db.prepare('SELECT 1 FROM collection_names WHERE project = ? AND name = ? LIMIT 1').get(project, name) !== undefined ||
      db.prepare('SELECT 1 FROM collection_records WHERE project = ? AND name = ? LIMIT 1').get(project, name) !== undefined
    );
  }
}
