import { Inject, Injectable } from '@nestjs/common';
import type { Statement } from 'better-sqlite3';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import { PlannedBatch } from '../../domain/batches';
import { LeaseCandidate } from '../../domain/lease';
import { FrontierOutcome, FrontierView, SlotRef, StoredBatch, StoredFingerprint } from '../../ports/frontier.view';

const SLOT = 'project = ? AND frontier = ? AND slot = ?';
const args = (s: SlotRef) => [s.project, s.frontier, s.slot] as const;
const tableExists = (views: SqliteViewDatabase, name: string) => views.writer.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !== undefined;

/**
 * The frontier on SQLite, written inside the projection store's transaction (one per
 * applied batch of events, with the checkpoint). Clustered tables (WITHOUT ROWID) keyed
 * by slot: fingerprints by (slot, fp), so a fingerprint is looked up in one B-tree probe
 * and /f reads in byte order; batches by (slot, id), the requests of a batch kept as one
 * JSON text. The decider reads through the reader connection: what folded facts committed.
 */
@Injectable()
export class FrontierSqlite implements FrontierView {
  private readonly st: Record<string, Statement>;

  constructor(@Inject(SqliteViewDatabase) private readonly views: SqliteViewDatabase) {
    views.defineSchema(`
      CREATE TABLE IF NOT EXISTS frontier_fps (
        project INTEGER NOT NULL, frontier TEXT NOT NULL, slot TEXT NOT NULL, fp TEXT NOT NULL, fdata TEXT,
        PRIMARY KEY (project, frontier, slot, fp)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS frontier_batches (
        project INTEGER NOT NULL, frontier TEXT NOT NULL, slot TEXT NOT NULL, id TEXT NOT NULL,
        n INTEGER NOT NULL, requests TEXT NOT NULL, leased_until INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (project, frontier, slot, id)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS frontier_slots (
        project INTEGER NOT NULL, frontier TEXT NOT NULL, slot TEXT NOT NULL,
        PRIMARY KEY (project, frontier, slot)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS frontier_answers (
        request_id TEXT NOT NULL PRIMARY KEY, at INTEGER NOT NULL, outcome TEXT NOT NULL) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS frontier_answers_by_time ON frontier_answers (at);
      CREATE TABLE IF NOT EXISTS frontier_decided_through (partition INTEGER PRIMARY KEY, request_offset INTEGER NOT NULL)`);
    const w = views.writer;
    const r = views.reader;
    this.st = {
      knownFp: r.prepare(`SELECT 1 FROM frontier_fps WHERE ${SLOT} AND fp = ?`),
      addFp: w.prepare('INSERT OR IGNORE INTO frontier_fps (project, frontier, slot, fp, fdata) VALUES (?, ?, ?, ?, ?)'),
      addSlot: w.prepare('INSERT OR IGNORE INTO frontier_slots (project, frontier, slot) VALUES (?, ?, ?)'),
      putBatch: w.prepare('INSERT OR IGNORE INTO frontier_batches (project, frontier, slot, id, n, requests) VALUES (?, ?, ?, ?, ?, ?)'),
      deleteBatch: w.prepare(`DELETE FROM frontier_batches WHERE ${SLOT} AND id = ?`),
      deleteFps: w.prepare(`DELETE FROM frontier_fps WHERE ${SLOT}`),
      deleteBatches: w.prepare(`DELETE FROM frontier_batches WHERE ${SLOT}`),
      deleteSlot: w.prepare(`DELETE FROM frontier_slots WHERE ${SLOT}`),
      candidatesFrom: r.prepare(`SELECT id, n, leased_until FROM frontier_batches WHERE ${SLOT} AND id >= ? ORDER BY id LIMIT ?`),
      candidatesAfter: r.prepare(`SELECT id, n, leased_until FROM frontier_batches WHERE ${SLOT} AND id > ? ORDER BY id LIMIT ?`),
      lease: w.prepare(`UPDATE frontier_batches SET leased_until = ? WHERE ${SLOT} AND id = ?`),
      saveOutcome: w.prepare('INSERT OR IGNORE INTO frontier_answers (request_id, at, outcome) VALUES (?, ?, ?)'),
      outcome: r.prepare('SELECT outcome FROM frontier_answers WHERE request_id = ?'),
      prune: w.prepare('DELETE FROM frontier_answers WHERE at < ?'),
      decidedThrough: r.prepare('SELECT request_offset FROM frontier_decided_through WHERE partition = ?'),
      markDecided: w.prepare(
        `INSERT INTO frontier_decided_through (partition, request_offset) VALUES (?, ?)
         ON CONFLICT (partition) DO UPDATE SET request_offset = MAX(request_offset, excluded.request_offset)`,
      ),
      batchesFrom: r.prepare(`SELECT id, n, requests, leased_until FROM frontier_batches WHERE ${SLOT} AND id >= ? ORDER BY id LIMIT ?`),
      batchesAfter: r.prepare(`SELECT id, n, requests, leased_until FROM frontier_batches WHERE ${SLOT} AND id > ? ORDER BY id LIMIT ?`),
      batchById: r.prepare(`SELECT id, n, requests, leased_until FROM frontier_batches WHERE ${SLOT} AND id = ?`),
      counts: r.prepare(`SELECT id, n FROM frontier_batches WHERE ${SLOT} AND id >= ? ORDER BY id LIMIT ?`),
      fpsFrom: r.prepare(`SELECT fp, fdata FROM frontier_fps WHERE ${SLOT} AND fp >= ? ORDER BY fp LIMIT ?`),
      fpsAfter: r.prepare(`SELECT fp, fdata FROM frontier_fps WHERE ${SLOT} AND fp > ? ORDER BY fp LIMIT ?`),
      frontiers: r.prepare('SELECT DISTINCT frontier FROM frontier_slots WHERE project = ? ORDER BY frontier'),
      slots: r.prepare('SELECT slot FROM frontier_slots WHERE project = ? AND frontier = ? ORDER BY slot'),
    };
    // These lookups return one column: take it raw.
    for (const s of [this.st.outcome, this.st.decidedThrough, this.st.knownFp]) s.pluck();
  }

  async knownFingerprints(slot: SlotRef, fps: string[]): Promise<boolean[]> {
    const { project, frontier, slot: name } = slot;
    const known = this.st.knownFp;
    return fps.map((fp) => known.get(project, frontier, name, fp) !== undefined);
  }

  async addFingerprints(_at: LogPosition, slot: SlotRef, fps: { fp: string; fdata: string | null }[]): Promise<void> {
    const { project, frontier, slot: name } = slot;
    const add = this.st.addFp;
    for (const f of fps) add.run(project, frontier, name, f.fp, f.fdata);
    if (fps.length) this.st.addSlot.run(project, frontier, name);
  }

  async putBatches(_at: LogPosition, slot: SlotRef, batches: PlannedBatch[]): Promise<void> {
    for (const b of batches) this.st.putBatch.run(...args(slot), b.id, b.count, b.requests);
  }

  async deleteBatches(_at: LogPosition, slot: SlotRef, ids: string[]): Promise<void> {
    for (const id of ids) this.st.deleteBatch.run(...args(slot), id);
  }

  async deleteSlot(_at: LogPosition, slot: SlotRef): Promise<void> {
    this.st.deleteFps.run(...args(slot));
    this.st.deleteBatches.run(...args(slot));
    this.st.deleteSlot.run(...args(slot));
  }

  async leaseCandidates(slot: SlotRef, range: { from?: string; after?: string }, limit: number): Promise<LeaseCandidate[]> {
    const rows = (range.after !== undefined ? this.st.candidatesAfter.all(...args(slot), range.after, limit) : this.st.candidatesFrom.all(...args(slot), range.from ?? '', limit)) as {
      id: string; n: number; leased_until: number;
    }[];
    return rows.map((r) => ({ id: r.id, count: r.n, leasedUntil: r.leased_until }));
  }

  async lease(_at: LogPosition, slot: SlotRef, ids: string[], until: number): Promise<void> {
    for (const id of ids) this.st.lease.run(until, ...args(slot), id);
  }

  async saveOutcome(_at: LogPosition, requestId: string, time: number, outcome: FrontierOutcome): Promise<void> {
    this.st.saveOutcome.run(requestId, time, JSON.stringify(outcome));
  }

  async outcome(requestId: string): Promise<FrontierOutcome | null> {
    const text = this.st.outcome.get(requestId) as string | undefined;
    return text === undefined ? null : (JSON.parse(text) as FrontierOutcome);
  }

  async pruneOutcomes(_at: LogPosition, before: number): Promise<void> {
    this.st.prune.run(before);
  }

  async decidedThrough(partition: number): Promise<number> {
    return (this.st.decidedThrough.get(partition) as number | undefined) ?? -1;
  }

  async markDecided(_at: LogPosition, partition: number, requestOffset: number): Promise<void> {
    this.st.markDecided.run(partition, requestOffset);
  }

  async builtBeforeFacts(): Promise<boolean> {
    // That release kept its answers in frontier_outcomes; this one never creates it, and a replay drops it.
    return tableExists(this.views, 'frontier_outcomes');
  }

  async batches(slot: SlotRef, range: { from?: string; after?: string }, limit: number): Promise<StoredBatch[]> {
    const rows = (range.after !== undefined ? this.st.batchesAfter.all(...args(slot), range.after, limit) : this.st.batchesFrom.all(...args(slot), range.from ?? '', limit)) as BatchRow[];
    return rows.map(toBatch);
  }

  async batchesById(slot: SlotRef, ids: string[]): Promise<StoredBatch[]> {
    const out: StoredBatch[] = [];
    for (const id of ids) {
      const row = this.st.batchById.get(...args(slot), id) as BatchRow | undefined;
      if (row) out.push(toBatch(row));
    }
    return out;
  }

  async countRequests(slot: SlotRef, from: string | undefined, maxBatches: number): Promise<{ count: number; next: string | null }> {
    const rows = this.st.counts.all(...args(slot), from ?? '', maxBatches + 1) as { id: string; n: number }[];
    let count = 0;
    for (let i = 0; i < Math.min(rows.length, maxBatches); i++) count += rows[i].n;
    return { count, next: rows.length > maxBatches ? rows[maxBatches].id : null };
  }

  async fingerprints(slot: SlotRef, range: { from?: string; after?: string }, limit: number): Promise<StoredFingerprint[]> {
    return (range.after !== undefined ? this.st.fpsAfter.all(...args(slot), range.after, limit) : this.st.fpsFrom.all(...args(slot), range.from ?? '', limit)) as StoredFingerprint[];
  }

  async frontiers(project: number): Promise<string[]> {
    return (this.st.frontiers.all(project) as { frontier: string }[]).map((r) => r.frontier);
  }

  async slots(project: number, frontier: string): Promise<string[]> {
    return (this.st.slots.all(project, frontier) as { slot: string }[]).map((r) => r.slot);
  }
}

interface BatchRow {
  id: string;
  n: number;
  requests: string;
  leased_until: number;
}

const toBatch = (r: BatchRow): StoredBatch => ({ id: r.id, count: r.n, requests: r.requests, leasedUntil: r.leased_until });
