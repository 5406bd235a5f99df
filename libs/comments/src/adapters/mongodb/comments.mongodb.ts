import { Inject, Injectable } from '@nestjs/common';
import { Collection, Filter } from 'mongodb';
import { LogPosition } from '@crawlhub/eventlog';
import { MongoViewDatabase } from '@crawlhub/views';
import { CommentTarget, JobCommentStats, StoredComment } from '../../domain/comment';
import { CommentsView } from '../../ports/comments.view';

interface CommentDoc {
  _id: number;
  p?: number;
  s?: number;
  j?: number;
  i?: number;
  /** Field name, '' for a comment on the whole item. */
  f?: string;
  a?: string;
  t?: string;
  c?: number;
  /** Archived at (ms), null while active. */
  x?: number | null;
  /** Id of the archive event that archived it. */
  xb?: string | null;
  /**
   * A deleted comment stays as a tombstone (only `_id`, `d` and `_o`), so that
   * re-applying its older `added` event after a crash cannot bring it back.
   */
  d?: true;
  /** Offset of the event that last changed it: older or equal events are skipped. */
  _o: number;
}

const toComment = (d: CommentDoc): StoredComment => ({
  id: d._id,
  project: d.p!,
  spider: d.s!,
  job: d.j!,
  item: d.i!,
  field: d.f === '' ? null : d.f!,
  author: d.a!,
  text: d.t!,
  created: d.c!,
  archived: d.x ?? null,
});

const targetFilter = (t: CommentTarget): Filter<CommentDoc> => ({ p: t.project, s: t.spider, j: t.job, i: t.item, f: t.field ?? '' });

/**
 * Exactly once without transactions: every change is guarded by `_o` (all changes of a
 * comment come from its project's partition, so offsets compare), and deletes leave
 * tombstones. Tombstones have no project fields, so no listing ever matches them.
 */
@Injectable()
export class CommentsMongo implements CommentsView {
  private readonly ready: Promise<void>;

  constructor(@Inject(MongoViewDatabase) private readonly views: MongoViewDatabase) {
    this.ready = views.defineIndexes(async (db) => {
      await db.collection<CommentDoc>('comments').createIndex({ p: 1, s: 1, j: 1, i: 1, f: 1, _id: 1 }, { name: 'target' });
    });
    this.ready.catch(() => undefined);
  }

  private get docs(): Collection<CommentDoc> {
    return this.views.db.collection<CommentDoc>('comments');
  }

  async add(at: LogPosition, c: StoredComment): Promise<void> {
    await this.ready;
    // Any document with this id (live or tombstone) means the event was applied before.
    if (await this.docs.findOne({ _id: c.id }, { projection: { _o: 1 } })) return;
    const doc: CommentDoc = {
      _id: c.id, p: c.project, s: c.spider, j: c.job, i: c.item, f: c.field ?? '', a: c.author, t: c.text, c: c.created, x: c.archived, xb: null, _o: at.offset,
    };
    await this.docs.insertOne(doc);
  }

  async edit(at: LogPosition, project: number, id: number, text: string): Promise<void> {
    await this.ready;
    await this.docs.updateOne({ _id: id, p: project, _o: { $lt: at.offset } }, { $set: { t: text, _o: at.offset } });
  }

  async archive(at: LogPosition, target: CommentTarget, archived: number, by: string): Promise<void> {
    await this.ready;
    // A comment added after this event has a newer `_o`: a re-applied archive leaves it alone.
    await this.docs.updateMany({ ...targetFilter(target), x: null, _o: { $lt: at.offset } }, { $set: { x: archived, xb: by, _o: at.offset } });
  }

  async remove(at: LogPosition, project: number, id: number): Promise<void> {
    await this.ready;
    await this.docs.replaceOne({ _id: id, p: project, _o: { $lt: at.offset } }, { d: true, _o: at.offset });
  }

  async get(id: number): Promise<StoredComment | null> {
    await this.ready;
    const doc = await this.docs.findOne({ _id: id });
    return doc && !doc.d ? toComment(doc) : null;
  }

  async ofJob(job: { project: number; spider: number; job: number }): Promise<StoredComment[]> {
    await this.ready;
    const docs = await this.docs.find({ p: job.project, s: job.spider, j: job.job }).sort({ i: 1, f: 1, _id: 1 }).toArray();
    return docs.map(toComment);
  }

  async ofTarget(target: CommentTarget): Promise<StoredComment[]> {
    await this.ready;
    return (await this.docs.find(targetFilter(target)).sort({ _id: 1 }).toArray()).map(toComment);
  }

  async archivedBy(target: CommentTarget, by: string): Promise<StoredComment[]> {
    await this.ready;
    return (await this.docs.find({ ...targetFilter(target), xb: by }).sort({ _id: 1 }).toArray()).map(toComment);
  }

  async stats(project: number): Promise<JobCommentStats[]> {
    await this.ready;
    const docs = await this.docs.find({ p: project, x: null }, { projection: { s: 1, j: 1, i: 1 } }).sort({ s: 1, j: 1, i: 1 }).toArray();
    const out: JobCommentStats[] = [];
    let lastItem: number | null = null;
    for (const d of docs) {
      let last = out[out.length - 1];
      if (!last || last.spider !== d.s || last.job !== d.j) {
        last = { spider: d.s!, job: d.j!, items: 0 };
        out.push(last);
        lastItem = null;
      }
      if (d.i !== lastItem) {
        last.items++;
        lastItem = d.i!;
      }
    }
    return out;
  }
}
