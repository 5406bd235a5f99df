import { Inject, Injectable } from '@nestjs/common';
import { AnyBulkWriteOperation, Collection } from 'mongodb';
import { COLLECTION_TYPES, CollectionRef, CollectionType } from '@crawlhub/contracts';
import { LogPosition } from '@crawlhub/eventlog';
import { MongoViewDatabase } from '@crawlhub/views';
import {
  CollectionRecordInput, compareKeys, isVersioned, lastWins, StoredCollectionRecord, typeId, typeOfId, unpackCollectionLine,
} from '../../domain/collection-record';
import { lastVersionToDrop } from '../../domain/collection-rules';
import { CollectionCommit, CollectionsView, CollectionWrite } from '../../ports/collections.view';

/**
 * Ids: `<project>/<name>/<type id>/<key>`. Names hold no '/', so `<project>/<name>/<type>/`
 * is the prefix of exactly one collection and a scan is one `_id` range, in byte order of
 * the keys (MongoDB compares strings by their UTF-8 bytes). '0' is the character after
 * '/': `<prefix without its last '/'>0` ends a prefix range. Nothing but the `_id` index
 * is needed (the wire-compatible test server ignores secondary indexes anyway).
 */
const collectionPrefix = (project: number, name: string, type: number) => `${project}/${name}/${type}/`;
const endOf = (prefix: string) => `${prefix.slice(0, -1)}0`;
const projectRange = (project: number) => ({ $gte: `${project}/`, $lt: `${project}0` });
/** Versions: `<collection prefix><key as JSON string>/<version, base 36, 8 wide>` (the JSON string ends a key unambiguously). */
const versionPrefix = (prefix: string, key: string) => `${prefix}${JSON.stringify(key)}/`;
const versionId = (prefix: string, key: string, v: number) => `${versionPrefix(prefix, key)}${v.toString(36).padStart(8, '0')}`;

interface RecordDoc {
  _id: string;
  p: number;
  n: string;
  t: number;
  k: string;
  ts: number;
  /** Version number of this record (0, 1, 2... per key; 0 for s and cs). */
  v: number;
  /** The record's JSON text without `_key`. */
  d: string;
  /** Offset of the event that wrote it, and the chunk within that event (committed uploads): older or equal changes are skipped. */
  _o: number;
  _s: number;
}

type VersionDoc = Omit<RecordDoc, '_s'>;

interface NameDoc {
  _id: string;
  p: number;
  n: string;
  t: number;
  _o: number;
}

interface StagingDoc {
  _id: string;
  l: string;
  _o: number;
}

const BULK = 1000;
const PURGE_EVERY_MS = 60_000;

/**
 * Collections on MongoDB without transactions (see MongoProjectionStore): every document
 * carries the offset (and chunk) of the change that wrote it, and a change skips documents
 * that are not older, so re-applying an event after a crash changes nothing. A versioned
 * write keeps the old record as a version before it replaces it (same version id on
 * re-apply); deletes and renames touch only documents older than their event.
 */
@Injectable()
export class CollectionsMongo implements CollectionsView {
  private readonly ready: Promise<void>;
  private readonly purged = new Map<number, number>();

  constructor(@Inject(MongoViewDatabase) private readonly views: MongoViewDatabase) {
    this.ready = views.defineIndexes(async () => undefined);
    this.ready.catch(() => undefined);
  }

  private get records(): Collection<RecordDoc> {
    return this.views.db.collection<RecordDoc>('collection_records');
  }
  private get versionDocs(): Collection<VersionDoc> {
    return this.views.db.collection<VersionDoc>('collection_versions');
  }
  private get staging(): Collection<StagingDoc> {
    return this.views.db.collection<StagingDoc>('collection_staging');
  }
  /** The collections written and not deleted (`<project>/<name>/<type id>`): emptied ones stay listed. */
  private get names(): Collection<NameDoc> {
    return this.views.db.collection<NameDoc>('collection_names');
  }
  private get uploads(): Collection<{ _id: string; _o: number }> {
    return this.views.db.collection<{ _id: string; _o: number }>('collection_uploads');
  }

  async write(at: LogPosition, w: CollectionWrite): Promise<void> {
    await this.ready;
    await this.writeNow(w, w.records, w.ts, w.keepVersions, at.offset, 0);
  }

  private async writeNow(ref: CollectionRef, records: CollectionRecordInput[], ts: number, keep: number, o: number, s: number): Promise<void> {
    const t = typeId(ref.type);
    const prefix = collectionPrefix(ref.project, ref.name, t);
    const versioned = isVersioned(ref.type);
    if (records.length) await this.register(ref.project, ref.name, t, o);
    const unique = lastWins(records);
    for (let i = 0; i < unique.length; i += BULK) {
      const batch = unique.slice(i, i + BULK);
      const existing = new Map<string, RecordDoc>();
      const found = this.records.find({ _id: { $in: batch.map((r) => prefix + r.key) } }, { projection: { ts: 1, v: 1, d: 1, _o: 1, _s: 1 } });
      for await (const doc of found) existing.set(doc._id, doc);
      const ops: AnyBulkWriteOperation<RecordDoc>[] = [];
      const versionOps: AnyBulkWriteOperation<VersionDoc>[] = [];
      const trimOps: AnyBulkWriteOperation<VersionDoc>[] = [];
      for (const r of batch) {
        const id = prefix + r.key;
        const cur = existing.get(id);
        if (cur && (cur._o > o || (cur._o === o && (cur._s ?? 0) >= s))) continue;
        let v = 0;
        if (versioned && cur) {
          const kept: VersionDoc = { _id: versionId(prefix, r.key, cur.v), p: ref.project, n: ref.name, t, k: r.key, ts: cur.ts, v: cur.v, d: cur.d, _o: o };
          versionOps.push({ replaceOne: { filter: { _id: kept._id }, replacement: kept, upsert: true } });
          v = cur.v + 1;
          const drop = lastVersionToDrop(v, keep);
          if (drop >= 0) trimOps.push({ deleteMany: { filter: { _id: { $gte: versionId(prefix, r.key, 0), $lte: versionId(prefix, r.key, drop) } } } });
        }
        const doc: RecordDoc = { _id: id, p: ref.project, n: ref.name, t, k: r.key, ts, v, d: r.json, _o: o, _s: s };
        ops.push(cur ? { replaceOne: { filter: { _id: id }, replacement: doc, upsert: true } } : { insertOne: { document: doc } });
      }
      // The old record is kept as a version before it is replaced: a crash in between redoes the same version.
      if (versionOps.length) await this.versionDocs.bulkWrite(versionOps, { ordered: false });
      if (trimOps.length) await this.versionDocs.bulkWrite(trimOps, { ordered: false });
      if (ops.length) await this.records.bulkWrite(ops, { ordered: false });
    }
  }

  private async register(project: number, name: string, t: number, o: number): Promise<void> {
    const id = collectionPrefix(project, name, t).slice(0, -1);
    await this.names.updateOne({ _id: id }, { $setOnInsert: { p: project, n: name, t }, $max: { _o: o } }, { upsert: true });
  }

  async stageChunk(at: LogPosition, c: { project: number; upload: string; seq: number; lines: string[] }): Promise<void> {
    await this.ready;
    if (await this.uploads.findOne({ _id: c.upload })) return;
    const doc: StagingDoc = { _id: `${c.upload}:${c.seq.toString(36).padStart(8, '0')}`, l: c.lines.join('\n'), _o: at.offset };
    await this.staging.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }

  async commitUpload(at: LogPosition, c: CollectionCommit): Promise<void> {
    await this.ready;
    const range = { _id: { $gte: `${c.upload}:`, $lt: `${c.upload};` } };
    if (!(await this.uploads.findOne({ _id: c.upload }))) {
      let seq = 0;
      for await (const chunk of this.staging.find(range, { batchSize: 1 }).sort({ _id: 1 })) {
        await this.writeNow(c, chunk.l.split('\n').map(unpackCollectionLine), c.ts, c.keepVersions, at.offset, seq++);
      }
    }
    await this.finishUpload(c.upload, at.offset);
  }

  async abortUpload(at: LogPosition, c: { project: number; upload: string }): Promise<void> {
    await this.ready;
    await this.finishUpload(c.upload, at.offset);
  }

  private async finishUpload(upload: string, o: number): Promise<void> {
    await this.uploads.updateOne({ _id: upload }, { $max: { _o: o } }, { upsert: true });
    await this.staging.deleteMany({ _id: { $gte: `${upload}:`, $lt: `${upload};` } });
  }

  async deleteRecords(at: LogPosition, ref: CollectionRef, keys: string[]): Promise<void> {
    await this.ready;
    const o = at.offset;
    const prefix = collectionPrefix(ref.project, ref.name, typeId(ref.type));
    for (let i = 0; i < keys.length; i += BULK) {
      const batch = keys.slice(i, i + BULK);
      await this.records.deleteMany({ _id: { $in: batch.map((k) => prefix + k) }, _o: { $lt: o } });
      if (isVersioned(ref.type)) {
        const ops: AnyBulkWriteOperation<VersionDoc>[] = batch.map((k) => ({
          deleteMany: { filter: { _id: { $gte: versionPrefix(prefix, k), $lt: endOf(versionPrefix(prefix, k)) }, _o: { $lt: o } } },
        }));
        await this.versionDocs.bulkWrite(ops, { ordered: false });
      }
    }
  }

  async deleteCollection(at: LogPosition, project: number, name: string): Promise<void> {
    await this.ready;
    const range = { $gte: `${project}/${name}/`, $lt: `${project}/${name}0` };
    await this.versionDocs.deleteMany({ _id: range, _o: { $lt: at.offset } });
    await this.records.deleteMany({ _id: range, _o: { $lt: at.offset } });
    await this.names.deleteMany({ _id: range, _o: { $lt: at.offset } });
  }

  async renameCollection(at: LogPosition, project: number, name: string, newName: string): Promise<void> {
    await this.ready;
    if (name === newName) return;
    const o = at.offset;
    for (let t = 0; t < COLLECTION_TYPES.length; t++) {
      const from = collectionPrefix(project, name, t);
      const to = collectionPrefix(project, newName, t);
      // The name first: a crash half-way leaves the collection listed under both names until the rename is applied again.
      if (await this.names.findOne({ _id: from.slice(0, -1), _o: { $lt: o } })) {
        await this.register(project, newName, t, o);
        await this.names.deleteOne({ _id: from.slice(0, -1), _o: { $lt: o } });
      }
      const older = (prefix: string) => ({ _id: { $gte: prefix, $lt: endOf(prefix) }, _o: { $lt: o } });
      // Versions first: every version of a moved record arrives before the record itself.
      for (;;) {
        const docs = await this.versionDocs.find(older(from)).sort({ _id: 1 }).limit(BULK).toArray();
        if (docs.length === 0) break;
        await this.versionDocs.bulkWrite(
          docs.map((d) => {
            const moved: VersionDoc = { ...d, _id: to + d._id.slice(from.length), n: newName, _o: o };
            return { replaceOne: { filter: { _id: moved._id }, replacement: moved, upsert: true } };
          }),
          { ordered: false },
        );
        await this.versionDocs.deleteMany({ _id: { $in: docs.map((d) => d._id) }, _o: { $lt: o } });
      }
      for (;;) {
        const docs = await this.records.find(older(from)).sort({ _id: 1 }).limit(BULK).toArray();
        if (docs.length === 0) break;
        const targets = new Map<string, number>();
        for await (const d of this.records.find({ _id: { $in: docs.map((x) => to + x.k) } }, { projection: { _o: 1 } })) targets.set(d._id, d._o);
        const ops: AnyBulkWriteOperation<RecordDoc>[] = [];
        const dropHistory: AnyBulkWriteOperation<VersionDoc>[] = [];
        for (const d of docs) {
          const id = to + d.k;
          if ((targets.get(id) ?? -1) >= o) continue;
          // A moved record replaces the record of the same key, history included.
          if (targets.has(id)) dropHistory.push({ deleteMany: { filter: older(versionPrefix(to, d.k)) } });
          const moved: RecordDoc = { ...d, _id: id, n: newName, _o: o, _s: 0 };
          ops.push({ replaceOne: { filter: { _id: id }, replacement: moved, upsert: true } });
        }
        if (dropHistory.length) await this.versionDocs.bulkWrite(dropHistory, { ordered: false });
        if (ops.length) await this.records.bulkWrite(ops, { ordered: false });
        await this.records.deleteMany({ _id: { $in: docs.map((d) => d._id) }, _o: { $lt: o } });
      }
    }
  }

  /** At most once a minute per project (it scans the project's documents): reads hide expired records by the clock anyway. */
  async purgeExpired(at: LogPosition, project: number, before: number): Promise<void> {
    await this.ready;
    const last = this.purged.get(project);
    if (last !== undefined && performance.now() - last < PURGE_EVERY_MS) return;
    this.purged.set(project, performance.now());
    const filter = { _id: projectRange(project), t: { $in: [typeId('cs'), typeId('vcs')] }, ts: { $lt: before }, _o: { $lt: at.offset } };
    await this.versionDocs.deleteMany(filter);
    await this.records.deleteMany(filter);
  }

  async scan(ref: CollectionRef, range: { low: string; high: string | null; limit: number }): Promise<StoredCollectionRecord[]> {
    await this.ready;
    if (range.limit <= 0) return [];
    const prefix = collectionPrefix(ref.project, ref.name, typeId(ref.type));
    const docs = await this.records
      .find({ _id: { $gte: prefix + range.low, $lt: range.high === null ? endOf(prefix) : prefix + range.high } }, { projection: { k: 1, ts: 1, d: 1 } })
      .sort({ _id: 1 })
      .limit(range.limit)
      .toArray();
    return docs.map(toRecord);
  }

  async getMany(ref: CollectionRef, keys: string[]): Promise<StoredCollectionRecord[]> {
    await this.ready;
    if (keys.length === 0) return [];
    const prefix = collectionPrefix(ref.project, ref.name, typeId(ref.type));
    const docs = await this.records.find({ _id: { $in: keys.map((k) => prefix + k) } }, { projection: { k: 1, ts: 1, d: 1 } }).toArray();
    return docs.map(toRecord).sort((a, b) => compareKeys(a.key, b.key));
  }

  async versions(ref: CollectionRef, key: string): Promise<StoredCollectionRecord[]> {
    await this.ready;
    const prefix = collectionPrefix(ref.project, ref.name, typeId(ref.type));
    const current = await this.records.findOne({ _id: prefix + key });
    if (!current) return [];
    const vp = versionPrefix(prefix, key);
    const older = await this.versionDocs.find({ _id: { $gte: vp, $lt: endOf(vp) } }).sort({ _id: -1 }).toArray();
    return [toRecord(current), ...older.map(toRecord)];
  }

  async list(project: number): Promise<{ type: CollectionType; name: string }[]> {
    await this.ready;
    const found = new Map<string, { type: CollectionType; name: string }>();
    // Every collection written since the names were kept, emptied ones too...
    for await (const doc of this.names.find({ _id: { $gte: `${project}/`, $lt: `${project}0` } })) found.set(doc._id, { name: doc.n, type: typeOfId(doc.t) });
    // ...and those written before, that hold records: one seek per collection.
    let low = `${project}/`;
    for (;;) {
      const doc = await this.records.findOne({ _id: { $gte: low, $lt: `${project}0` } }, { sort: { _id: 1 }, projection: { n: 1, t: 1 } });
      if (!doc) break;
      found.set(collectionPrefix(project, doc.n, doc.t).slice(0, -1), { name: doc.n, type: typeOfId(doc.t) });
      low = endOf(collectionPrefix(project, doc.n, doc.t));
    }
    return [...found.values()].sort((a, b) => compareKeys(a.name, b.name) || typeId(a.type) - typeId(b.type));
  }

  async exists(project: number, name: string): Promise<boolean> {
    await this.ready;
    const range = { _id: { $gte: `${project}/${name}/`, $lt: `${project}/${name}0` } };
    return (await this.names.findOne(range, { projection: { _id: 1 } })) !== null || (await this.records.findOne(range, { projection: { _id: 1 } })) !== null;
  }
}

function toRecord(d: Pick<RecordDoc, 'k' | 'ts' | 'd'>): StoredCollectionRecord {
  return { key: d.k, ts: d.ts, json: d.d };
}
