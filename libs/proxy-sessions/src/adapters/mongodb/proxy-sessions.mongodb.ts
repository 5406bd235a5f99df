import { Inject, Injectable } from '@nestjs/common';
import { Collection } from 'mongodb';
import { LogPosition } from '@crawlhub/eventlog';
import { MongoDecidedViews, MongoViewDatabase } from '@crawlhub/views';
import { DecidedSession, ProxySessionsView, SessionState, StoredSession } from '../../ports/proxy-sessions.view';

/**
 * One document per (user, session id) in `proxy_session_states`, `_id` = `<user>/<id>` (the
 * release that decided while projecting kept them in `proxy_sessions`: see
 * builtBeforeFacts); the decided-through mark per partition in `proxy_session_decided`.
 * Every write is safe to apply again (no transactions: a batch may be applied twice after a
 * crash): a decided session is written only over no document or one without an exit (a
 * pending one), touches are `$max`, a delete only matches an active or pending session, a
 * forget removes by id, and the mark is written last (`$max`), so a fact whose mark is
 * there has its documents written.
 */
interface SessionDoc {
  _id: string;
  u: string;
  i: string;
  x: string;
  lu: number;
  st: SessionState;
  /** A deleted session's: the offset of its delete (a decision of a request before it still counts the session). */
  do?: number;
  /** The offset of the event that wrote the document first. */
  _o: number;
}

const idOf = (user: string, id: string) => `${user}/${id}`;
const sessionOf = (d: SessionDoc): StoredSession => ({ id: d.i, exit: d.x, lastUsed: d.lu, state: d.st });

@Injectable()
export class ProxySessionsMongo extends MongoDecidedViews implements ProxySessionsView {
  private readonly ready: Promise<void>;

  constructor(@Inject(MongoViewDatabase) views: MongoViewDatabase) {
    super(views, { marks: 'proxy_session_decided', beforeFacts: 'proxy_sessions' });
    this.ready = views.defineIndexes(async (db) => {
      await db.collection<SessionDoc>('proxy_session_states').createIndex({ u: 1, lu: 1 }, { name: 'proxy_session_states_idle' });
      await db.collection<SessionDoc>('proxy_session_states').createIndex({ u: 1, st: 1, lu: 1 }, { name: 'proxy_session_states_active' });
    });
    this.ready.catch(() => undefined);
  }

  private get docs(): Collection<SessionDoc> {
    return this.views.db.collection<SessionDoc>('proxy_session_states');
  }

  async decided(user: string, id: string): Promise<boolean> {
    await this.ready;
    return (await this.docs.findOne({ _id: idOf(user, id), x: { $ne: '' } }, { projection: { _id: 1 } })) !== null;
  }

  async idle(user: string, before: number, max: number): Promise<string[]> {
    await this.ready;
    const docs = await this.docs.find({ u: user, lu: { $lt: before } }, { projection: { i: 1 } }).sort({ lu: 1, i: 1 }).limit(max).toArray();
    return docs.map((d) => d.i);
  }

  async countActive(user: string, since: number, requestOffset: number): Promise<number> {
    await this.ready;
    return this.docs.countDocuments({ u: user, lu: { $gte: since }, $or: [{ st: 'active' }, { st: 'deleted', x: { $ne: '' }, do: { $gt: requestOffset } }] });
  }

  async forget(_at: LogPosition, user: string, ids: string[]): Promise<void> {
    await this.ready;
    if (ids.length) await this.docs.deleteMany({ _id: { $in: ids.map((id) => idOf(user, id)) } });
  }

  async putDecided(at: LogPosition, user: string, s: DecidedSession): Promise<void> {
    await this.ready;
    const _id = idOf(user, s.id);
    const pending = await this.docs.findOne({ _id, x: '' });
    // A pending document (touched or deleted before its decision was folded) is completed, a deleted one stays deleted; a decided one stays as it is.
    if (pending) await this.docs.updateOne({ _id, x: '' }, { $set: { x: s.exit, lu: Math.max(pending.lu, s.lastUsed), st: pending.st === 'deleted' ? 'deleted' : s.state } });
    else await this.docs.updateOne({ _id }, { $setOnInsert: { u: user, i: s.id, x: s.exit, lu: s.lastUsed, st: s.state, _o: at.offset } }, { upsert: true });
  }

  async touch(at: LogPosition, user: string, lastUsed: Record<string, number>): Promise<void> {
    await this.ready;
    const ops = Object.entries(lastUsed).map(([id, ms]) => ({
      updateOne: { filter: { _id: idOf(user, id) }, update: { $max: { lu: ms }, $setOnInsert: { u: user, i: id, x: '', st: 'pending' as SessionState, _o: at.offset } }, upsert: true },
    }));
    if (ops.length) await this.docs.bulkWrite(ops, { ordered: false });
  }

  async delete(at: LogPosition, user: string, id: string, when: number): Promise<void> {
    await this.ready;
    const _id = idOf(user, id);
    await this.docs.updateOne({ _id, st: { $in: ['active', 'pending'] } }, { $set: { st: 'deleted', do: at.offset } });
    await this.docs.updateOne({ _id }, { $setOnInsert: { u: user, i: id, x: '', lu: when, st: 'deleted', do: at.offset, _o: at.offset } }, { upsert: true });
  }

  async session(user: string, id: string): Promise<StoredSession | null> {
    await this.ready;
    const d = await this.docs.findOne({ _id: idOf(user, id) });
    return d ? sessionOf(d) : null;
  }

  async active(user: string): Promise<StoredSession[]> {
    await this.ready;
    return (await this.docs.find({ u: user, st: 'active' }).sort({ i: 1 }).toArray()).map(sessionOf);
  }
}
