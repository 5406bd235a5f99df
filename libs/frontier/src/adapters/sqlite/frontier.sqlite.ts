import { Inject, Injectable } from '@nestjs/common';
import type { Statement } from 'better-sqlite3';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import { PlannedBatch } from '../../domain/batches';
import { LeaseCandidate } from '../../domain/lease';
import { FrontierOutcome, FrontierView, SlotRef, StoredBatch, StoredFingerprint } from '../../ports/frontier.view';

const SLOT = 'project = ? AND frontier = ? AND slot = ?';
const args = (s: SlotRef) => [s.project, s.frontier, s.slot] as const;

/**
 * The frontier on SQLite, written inside the projection store's transaction (one per
 * applied batch of events, with the checkpoint). Clustered tables (WITHOUT ROWID) keyed
 * by slot: fingerprints by (slot, fp), so `INSERT OR IGNORE` + `changes` tells a new
 * fingerprint from a known one in one B-tree probe, and /f reads in byte order; batches by
 * (slot, id), the requests of a batch kept as one JSON text.
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
        n INTEGER NOT NULL, requests TEXT NOT NULL, leased_until INTEGER NOT NULL DEFAULT 0, lease_offset INTEGER,
        PRIMARY KEY (project, frontier, slot, id)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS frontier_slots (
        project INTEGER NOT NULL, frontier TEXT NOT NULL, slot TEXT NOT NULL,
        PRIMARY KEY (project, frontier, slot)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS frontier_outcomes (
        request_id TEXT NOT NULL PRIMARY KEY, at INTEGER NOT NULL, outcome TEXT NOT NULL) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS frontier_outcomes_by_time ON frontier_outcomes (at)`);
    const w = views.writer;
    const r = views.reader;
    this.st = {
      addFp: w.prepare('INSERT OR IGNORE INTO frontier_fps (project, frontier, slot, fp, fdata) VALUES (?, ?, ?, ?, ?)'),
      addSlot: w.prepare('INSERT OR IGNORE INTO frontier_slots (project, frontier, slot) VALUES (?, ?, ?)'),
      putBatch: w.prepare('INSERT OR IGNORE INTO frontier_batches (project, frontier, slot, id, n, requests) VALUES (?, ?, ?, ?, ?, ?)'),
      deleteBatch: w.prepare(`DELETE FROM frontier_batches WHERE ${SLOT} AND id = ?`),
      deleteFps: w.prepare(`DELETE FROM frontier_fps WHERE ${SLOT}`),
      deleteBatches: w.prepare(`DELETE FROM frontier_batches WHERE ${SLOT}`),
      deleteSlot: w.prepare(`DELETE FROM frontier_slots WHERE ${SLOT}`),
      candidatesFrom: w.prepare(`SELECT id, n, leased_until, lease_offset FROM frontier_batches WHERE ${SLOT} AND id >= ? ORDER BY id LIMIT ?`),
      candidatesAfter: w.prepare(`SELECT id, n, leased_until, lease_offset FROM frontier_batches WHERE ${SLOT} AND id > ? ORDER BY id LIMIT ?`),
      lease: w.prepare(`UPDATE frontier_batches SET leased_until = ?, lease_offset = ? WHERE ${SLOT} AND id = ?`),
      saveOutcome: w.prepare('INSERT OR IGNORE INTO frontier_outcomes (request_id, at, outcome) VALUES (?, ?, ?)'),
      outcomeW: w.prepare('SELECT outcome FROM frontier_outcomes WHERE request_id = ?'),
      outcomeR: r.prepare('SELECT outcome FROM frontier_outcomes WHERE request_id = ?'),
      prune: w.prepare('DELETE FROM frontier_outcomes WHERE at < ?'),
      batchesFrom: r.prepare(`SELECT id, n, requests, leased_until FROM frontier_batches WHERE ${SLOT} AND id >= ? ORDER BY id LIMIT ?`),
      batchesAfter: r.prepare(`SELECT id, n, requests, leased_until FROM frontier_batches WHERE ${SLOT} AND id > ? ORDER BY id LIMIT ?`),
      batchById: r.prepare(`SELECT id, n, requests, leased_until FROM frontier_batches WHERE ${SLOT} AND id = ?`),
      counts: r.prepare(`SELECT id, n FROM frontier_batches WHERE ${SLOT} AND id >= ? ORDER BY id LIMIT ?`),
      fpsFrom: r.prepare(`SELECT fp, fdata FROM frontier_fps WHERE ${SLOT} AND fp >= ? ORDER BY fp LIMIT ?`),
      fpsAfter: r.prepare(`SELECT fp, fdata FROM frontier_fps WHERE ${SLOT} AND fp > ? ORDER BY fp LIMIT ?`),
      frontiers: r.prepare('SELECT DISTINCT frontier FROM frontier_slots WHERE project = ? ORDER BY frontier'),
      slots: r.prepare('SELECT slot FROM frontier_slots WHERE project = ? AND frontier = ? ORDER BY slot'),
    };
    // The outcome lookups return one column: take it raw.
    for (const s of [this.st.outcomeW, this.st.outcomeR]) s.pluck();
  }

  async addFingerprints(_at: LogPosition, slot: SlotRef, fps: { fp: string; fdata: string | null }[]): Promise<boolean[]> {
    const { project, frontier, slot: name } = slot;
    const add = this.st.addFp;
    const out = new Array<boolean>(fps.length);
    let any = false;
    for (let i = 0; i < fps.length; i++) {
      const isNew = add.run(project, frontier, name, fps[i].fp, fps[i].fdata).changes > 0;
      out[i] = isNew;
      any ||= isNew;
    }
    if (any) this.st.addSlot.run(project, frontier, name);
    return out;
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
      id: string; n: number; leased_until: number; lease_offset: number | null;
    }[];
    return rows.map((r) => ({ id: r.id, count: r.n, leasedUntil: r.leased_until, leaseOffset: r.lease_offset }));
  }

  async lease(at: LogPosition, slot: SlotRef, ids: string[], until: number): Promise<void> {
    for (const id of ids) this.st.lease.run(until, at.offset, ...args(slot), id);
  }

  async saveOutcome(_at: LogPosition, requestId: string, time: number, outcome: FrontierOutcome): Promise<void> {
    this.st.saveOutcome.run(requestId, time, JSON.stringify(outcome));
  }

  /** Read through the writer: inside the projector's transaction it sees the batch applied so far. */
  async outcome(requestId: string): Promise<FrontierOutcome | null> {
    const text = (this.views.writer.inTransaction ? this.st.outcomeW : this.st.outcomeR).get(requestId) as string | undefined;
    return text === undefined ? null : (JSON.parse(text) as FrontierOutcome);
  }

  async pruneOutcomes(_at: LogPosition, before: number): Promise<void> {
    this.st.prune.run(before);
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
