import { Inject, Injectable } from '@nestjs/common';
import { AnyBulkWriteOperation, Collection } from 'mongodb';
import { LogPosition } from '@crawlhub/eventlog';
import { MongoDecidedViews, MongoViewDatabase } from '@crawlhub/views';
import { PlannedBatch } from '../../domain/batches';
import { LeaseCandidate } from '../../domain/lease';
import { FrontierOutcome, FrontierView, SlotRef, StoredBatch, StoredFingerprint } from '../../ports/frontier.view';

/** `_id` = `<slot key>/<fp>`; `_o` = offset of the event that inserted it. */
interface FingerprintDoc {
  _id: string;
  fd?: string;
  _o: number;
}

/** `_id` = `<slot key>/<batch id>`; `_o` = offset of the event that created it. */
interface BatchDoc {
  _id: string;
  n: number;
  r: string;
  /** Leased until (ms), 0 when never leased. */
  lu: number;
  _o: number;
}

/** `_id` = the slot key `<project>/<frontier>/<slot>`. */
interface SlotDoc {
  _id: string;
  f: string;
  s: string;
  _o: number;
}

interface OutcomeDoc {
  _id: string;
  at: number;
  d: string;
  _o: number;
}

/** Keys of a slot's documents start with this; frontier and slot names never contain '/'. */
const prefixOf = (s: SlotRef) => `${s.project}/${s.frontier}/${s.slot}/`;
/** Just past every key with the prefix (its last character '/' + 1 = '0'). */
const endOf = (prefix: string) => `${prefix.slice(0, -1)}0`;

function rangeOf(prefix: string, range: { from?: string; after?: string }) {
  if (range.after !== undefined) return { $gt: prefix + range.after, $lt: endOf(prefix) };
  return { $gte: prefix + (range.from ?? ''), $lt: endOf(prefix) };
}

/** Fingerprints per driver call. */
const CHUNK = 5000;

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/**
 * The frontier on MongoDB through the plain driver API (no transactions; only `_id` is
 * relied on for lookups, as range queries on key prefixes). Exactly once in effect: a
 * fact's documents are written whole (`$setOnInsert`), so a fact folded again after a
 * crash writes the same; deletes only remove documents created by earlier events; the
 * partition's decided-through mark is written last (`$max`), and a fact at or below it
 * is not folded again (the projection checks).
 */
@Injectable()
export class FrontierMongo extends MongoDecidedViews implements FrontierView {
  private readonly ready: Promise<void>;

  constructor(@Inject(MongoViewDatabase) views: MongoViewDatabase) {
    // The release that decided while projecting kept its answers in frontier_outcomes; its pruning never removed the latest one.
    super(views, { marks: 'frontier_decided_through', beforeFacts: 'frontier_outcomes' });
    this.ready = views.defineIndexes(async (db) => {
      await db.collection<OutcomeDoc>('frontier_answers').createIndex({ at: 1 }, { name: 'by_time' });
    });
    this.ready.catch(() => undefined);
  }

  private get fps(): Collection<FingerprintDoc> {
    return this.views.db.collection<FingerprintDoc>('frontier_fps');
  }
  private get batchDocs(): Collection<BatchDoc> {
    return this.views.db.collection<BatchDoc>('frontier_batches');
  }
  private get slotDocs(): Collection<SlotDoc> {
    return this.views.db.collection<SlotDoc>('frontier_slots');
  }
  private get outcomes(): Collection<OutcomeDoc> {
    return this.views.db.collection<OutcomeDoc>('frontier_answers');
  }

  async knownFingerprints(slot: SlotRef, fps: string[]): Promise<boolean[]> {
    await this.ready;
    const prefix = prefixOf(slot);
    const known = new Set<string>();
    for (let start = 0; start < fps.length; start += CHUNK) {
      const ids = fps.slice(start, start + CHUNK).map((fp) => prefix + fp);
      for (const d of await this.fps.find({ _id: { $in: ids } }, { projection: { _id: 1 } }).toArray()) known.add(d._id);
    }
    return fps.map((fp) => known.has(prefix + fp));
  }

  async addFingerprints(at: LogPosition, slot: SlotRef, fps: { fp: string; fdata: string | null }[]): Promise<void> {
    await this.ready;
    if (!fps.length) return;
    const prefix = prefixOf(slot);
    for (let start = 0; start < fps.length; start += CHUNK) {
      const ops: AnyBulkWriteOperation<FingerprintDoc>[] = fps.slice(start, start + CHUNK).map((f) => ({
        updateOne: {
          filter: { _id: prefix + f.fp },
          update: { $setOnInsert: f.fdata === null ? { _o: at.offset } : { fd: f.fdata, _o: at.offset } },
          upsert: true,
        },
      }));
      await this.fps.bulkWrite(ops, { ordered: false });
    }
    await this.slotDocs.updateOne({ _id: prefix.slice(0, -1) }, { $setOnInsert: { f: slot.frontier, s: slot.slot }, $max: { _o: at.offset } }, { upsert: true });
  }

  async putBatches(at: LogPosition, slot: SlotRef, batches: PlannedBatch[]): Promise<void> {
    await this.ready;
    if (!batches.length) return;
    const prefix = prefixOf(slot);
    await this.batchDocs.bulkWrite(
      batches.map((b) => ({
        updateOne: { filter: { _id: prefix + b.id }, update: { $setOnInsert: { n: b.count, r: b.requests, lu: 0, _o: at.offset } }, upsert: true },
      })),
      { ordered: false },
    );
  }

  async deleteBatches(at: LogPosition, slot: SlotRef, ids: string[]): Promise<void> {
    await this.ready;
    const prefix = prefixOf(slot);
    await this.batchDocs.deleteMany({ _id: { $in: ids.map((id) => prefix + id) }, _o: { $lt: at.offset } });
  }

  async deleteSlot(at: LogPosition, slot: SlotRef): Promise<void> {
    await this.ready;
    const prefix = prefixOf(slot);
    const older = { $lt: at.offset };
    await this.batchDocs.deleteMany({ _id: rangeOf(prefix, {}), _o: older });
    await this.fps.deleteMany({ _id: rangeOf(prefix, {}), _o: older });
    await this.slotDocs.deleteOne({ _id: prefix.slice(0, -1), _o: older });
  }

  async leaseCandidates(slot: SlotRef, range: { from?: string; after?: string }, limit: number): Promise<LeaseCandidate[]> {
    await this.ready;
    const prefix = prefixOf(slot);
    const docs = await this.batchDocs.find({ _id: rangeOf(prefix, range) }, { projection: { n: 1, lu: 1 } }).sort({ _id: 1 }).limit(limit).toArray();
    return docs.map((d) => ({ id: d._id.slice(prefix.length), count: d.n, leasedUntil: d.lu ?? 0 }));
  }

  async lease(_at: LogPosition, slot: SlotRef, ids: string[], until: number): Promise<void> {
    await this.ready;
    const prefix = prefixOf(slot);
    await this.batchDocs.updateMany({ _id: { $in: ids.map((id) => prefix + id) } }, { $set: { lu: until } });
  }

  async saveOutcome(at: LogPosition, requestId: string, time: number, outcome: FrontierOutcome): Promise<void> {
    await this.ready;
    await this.outcomes.updateOne({ _id: requestId }, { $setOnInsert: { at: time, d: JSON.stringify(outcome), _o: at.offset } }, { upsert: true });
  }

  async outcome(requestId: string): Promise<FrontierOutcome | null> {
    await this.ready;
    const doc = await this.outcomes.findOne({ _id: requestId });
    return doc ? (JSON.parse(doc.d) as FrontierOutcome) : null;
  }

  async pruneOutcomes(_at: LogPosition, before: number): Promise<void> {
    await this.ready;
    await this.outcomes.deleteMany({ at: { $lt: before } });
  }

  async batches(slot: SlotRef, range: { from?: string; after?: string }, limit: number): Promise<StoredBatch[]> {
    await this.ready;
    const prefix = prefixOf(slot);
    const docs = await this.batchDocs.find({ _id: rangeOf(prefix, range) }).sort({ _id: 1 }).limit(limit).toArray();
    return docs.map((d) => toBatch(prefix, d));
  }

  async batchesById(slot: SlotRef, ids: string[]): Promise<StoredBatch[]> {
    await this.ready;
    if (!ids.length) return [];
    const prefix = prefixOf(slot);
    const docs = await this.batchDocs.find({ _id: { $in: ids.map((id) => prefix + id) } }).toArray();
    const byId = new Map(docs.map((d) => [d._id.slice(prefix.length), d]));
    return ids.filter((id) => byId.has(id)).map((id) => toBatch(prefix, byId.get(id)!));
  }

  async countRequests(slot: SlotRef, from: string | undefined, maxBatches: number): Promise<{ count: number; next: string | null }> {
    await this.ready;
    const prefix = prefixOf(slot);
    const docs = await this.batchDocs.find({ _id: rangeOf(prefix, { from }) }, { projection: { n: 1 } }).sort({ _id: 1 }).limit(maxBatches + 1).toArray();
    let count = 0;
    for (let i = 0; i < Math.min(docs.length, maxBatches); i++) count += docs[i].n;
    return { count, next: docs.length > maxBatches ? docs[maxBatches]._id.slice(prefix.length) : null };
  }

  async fingerprints(slot: SlotRef, range: { from?: string; after?: string }, limit: number): Promise<StoredFingerprint[]> {
    await this.ready;
    const prefix = prefixOf(slot);
    const docs = await this.fps.find({ _id: rangeOf(prefix, range) }, { projection: { fd: 1 } }).sort({ _id: 1 }).limit(limit).toArray();
    return docs.map((d) => ({ fp: d._id.slice(prefix.length), fdata: d.fd ?? null }));
  }

  async frontiers(project: number): Promise<string[]> {
    await this.ready;
    const docs = await this.slotDocs.find({ _id: rangeOf(`${project}/`, {}) }, { projection: { f: 1 } }).toArray();
    return [...new Set(docs.map((d) => d.f))].sort(byBytes);
  }

  async slots(project: number, frontier: string): Promise<string[]> {
    await this.ready;
    const docs = await this.slotDocs.find({ _id: rangeOf(`${project}/${frontier}/`, {}) }, { projection: { s: 1 } }).toArray();
    return docs.map((d) => d.s).sort(byBytes);
  }
}

const toBatch = (prefix: string, d: BatchDoc): StoredBatch => ({ id: d._id.slice(prefix.length), count: d.n, requests: d.r, leasedUntil: d.lu ?? 0 });
