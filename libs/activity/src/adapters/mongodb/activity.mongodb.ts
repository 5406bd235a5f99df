import { Inject, Injectable } from '@nestjs/common';
import { AnyBulkWriteOperation, Collection } from 'mongodb';
import { LogPosition } from '@crawlhub/eventlog';
import { MongoViewDatabase } from '@crawlhub/views';
import { ActivityMessage, ActivityPosition, ActivityScan, ActivityView, StoredActivity } from '../../ports/activity.view';

/**
 * Each message is one document keyed by its id, so recording is an upsert that only
 * inserts (`$setOnInsert`): re-applying an event, with or without the checkpoint,
 * changes nothing (the MongoDB exactly-once rule without transactions). `k` is one string
 * that sorts like (project, ts, o, n, id): each number in base 36, fixed width 10, then
 * the id. A project's newest-first page is one descending range of the `k` index, with
 * no `$or` and no compound sort.
 */
const WIDTH = 10;
const MAX = 36 ** WIDTH - 1;
const PAD = '0'.repeat(WIDTH);
/** Sorts after every digit of the encoding: the open end of a prefix range. */
const HIGH = '~';

function enc(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0 || n > MAX) throw new RangeError(`activity coordinate out of range: ${n}`);
  const s = n.toString(36);
  return PAD.slice(s.length) + s;
}

const keyOf = (project: number, p: ActivityPosition) => `${enc(project)}${enc(p.ts)}${enc(p.o)}${enc(p.n)}${p.id}`;

interface ActivityDoc {
  _id: string;
  k: string;
  p: number;
  ts: number;
  o: number;
  n: number;
  /** The message's JSON text: field order and number spellings survive as written. */
  d: string;
  /** Offset of the event that wrote it (documents are never changed afterwards). */
  _o: number;
}

@Injectable()
export class ActivityMongo implements ActivityView {
  private readonly ready: Promise<void>;

  constructor(@Inject(MongoViewDatabase) private readonly views: MongoViewDatabase) {
    this.ready = views.defineIndexes(async (db) => {
      await db.collection<ActivityDoc>('activity').createIndex({ k: 1 }, { name: 'order', unique: true });
    });
    this.ready.catch(() => undefined);
  }

  private get docs(): Collection<ActivityDoc> {
    return this.views.db.collection<ActivityDoc>('activity');
  }

  async record(at: LogPosition, project: number, messages: ActivityMessage[]): Promise<void> {
    await this.ready;
    if (messages.length === 0) return;
    const ops: AnyBulkWriteOperation<ActivityDoc>[] = messages.map((m, n) => {
      const { _id, ...rest }: ActivityDoc = { _id: m.id, k: keyOf(project, { ts: m.ts, o: at.offset, n, id: m.id }), p: project, ts: m.ts, o: at.offset, n, d: m.json, _o: at.offset };
      return { updateOne: { filter: { _id }, update: { $setOnInsert: rest }, upsert: true } };
    });
    await this.docs.bulkWrite(ops, { ordered: false });
  }

  async scan(q: ActivityScan): Promise<StoredActivity[]> {
    await this.ready;
    if (q.limit <= 0 || !inRange(q.project)) return [];
    const prefix = enc(q.project);
    const high = q.before ? keyOf(q.project, q.before) : prefix + HIGH;
    const docs = await this.docs
      .find({ k: { $gt: prefix, $lt: high } }, { projection: { p: 1, ts: 1, o: 1, n: 1, d: 1 } })
      .sort({ k: -1 })
      .limit(q.limit)
      .toArray();
    return docs.map((d) => ({ project: d.p, ts: d.ts, o: d.o, n: d.n, id: d._id, json: d.d }));
  }

  async projects(): Promise<number[]> {
    await this.ready;
    // A skip scan over the `k` index: one seek per project.
    const out: number[] = [];
    let low = '';
    for (;;) {
      const doc = await this.docs.find({ k: { $gt: low } }, { projection: { p: 1 } }).sort({ k: 1 }).limit(1).next();
      if (!doc) return out;
      out.push(doc.p);
      low = enc(doc.p) + HIGH;
    }
  }
}

function inRange(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0 && n <= MAX;
}
