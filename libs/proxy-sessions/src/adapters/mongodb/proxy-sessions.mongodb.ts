import { Inject, Injectable } from '@nestjs/common';
import { Collection } from 'mongodb';
import { LogPosition } from '@crawlhub/eventlog';
import { MongoViewDatabase } from '@crawlhub/views';
import { ProxySessionsView, SessionState, StoredSession } from '../../ports/proxy-sessions.view';

/**
 * One document per (user, session id), `_id` = `<user>/<id>`. Every write is safe to
 * apply again: the insert is `$setOnInsert` (first write wins; `_o` = the offset of the
 * event that created it), touches are `$max`, a delete only matches an active session,
 * and the purge removes by last use.
 */
interface SessionDoc {
  _id: string;
  u: string;
  i: string;
  x: string;
  lu: number;
  st: SessionState;
  _o: number;
}

const idOf = (user: string, id: string) => `${user}/${id}`;
const sessionOf = (d: SessionDoc): StoredSession => ({ id: d.i, exit: d.x, lastUsed: d.lu, state: d.st });

@Injectable()
export class ProxySessionsMongo implements ProxySessionsView {
  private readonly ready: Promise<void>;

  constructor(@Inject(MongoViewDatabase) private readonly views: MongoViewDatabase) {
    this.ready = views.defineIndexes(async (db) => {
      await db.collection<SessionDoc>('proxy_sessions').createIndex({ u: 1, lu: 1 }, { name: 'proxy_sessions_user' });
    });
    this.ready.catch(() => undefined);
  }

  private get docs(): Collection<SessionDoc> {
    return this.views.db.collection<SessionDoc>('proxy_sessions');
  }

  async stored(user: string, id: string): Promise<StoredSession | null> {
    return this.session(user, id);
  }

  async countActive(user: string): Promise<number> {
    await this.ready;
    return this.docs.countDocuments({ u: user, st: 'active' });
  }

  async purge(_at: LogPosition, user: string, before: number): Promise<void> {
    await this.ready;
    await this.docs.deleteMany({ u: user, lu: { $lt: before } });
  }

  async insert(at: LogPosition, user: string, s: StoredSession): Promise<void> {
    await this.ready;
    await this.docs.updateOne(
      { _id: idOf(user, s.id) },
      { $setOnInsert: { u: user, i: s.id, x: s.exit, lu: s.lastUsed, st: s.state, _o: at.offset } },
      { upsert: true },
    );
  }

  async touch(_at: LogPosition, user: string, lastUsed: Record<string, number>): Promise<void> {
    await this.ready;
    const ops = Object.entries(lastUsed).map(([id, ms]) => ({ updateOne: { filter: { _id: idOf(user, id) }, update: { $max: { lu: ms } } } }));
    if (ops.length) await this.docs.bulkWrite(ops, { ordered: false });
  }

  async delete(_at: LogPosition, user: string, id: string): Promise<void> {
    await this.ready;
    await this.docs.updateOne({ _id: idOf(user, id), st: 'active' }, { $set: { st: 'deleted' } });
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
