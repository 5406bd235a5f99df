import { Inject, Injectable } from '@nestjs/common';
import { AnyBulkWriteOperation, Collection } from 'mongodb';
import { LogPosition } from '@crawlhub/eventlog';
import { MongoViewDatabase } from '@crawlhub/views';
import { RegisteredSpider } from '../../domain/spider-command';
import { SpiderCommandsView } from '../../ports/spider-commands.view';

interface SpiderCommandDoc {
  /** `<project>/<spider>`. */
  _id: string;
  project: number;
  spider: string;
  /** The registration as JSON text; null once unregistered (a tombstone keeps `_o`). */
  d: string | null;
  /** Offset of the event that last wrote it: older or equal events are skipped on re-apply. */
  _o: number;
}

const idOf = (project: number, spider: string) => `${project}/${spider}`;

/**
 * Spider commands on MongoDB, without transactions: each document carries the offset of
 * the event that last wrote it, and a write that is not newer is skipped. Unregistering
 * leaves a tombstone (`d: null`), so a re-applied older registration cannot bring a
 * removed spider back. A project's events share one partition, so their offsets compare.
 */
@Injectable()
export class SpiderCommandsMongo implements SpiderCommandsView {
  private readonly ready: Promise<void>;

  constructor(@Inject(MongoViewDatabase) private readonly views: MongoViewDatabase) {
    this.ready = views.defineIndexes(async (db) => {
      await db.collection<SpiderCommandDoc>('spider_commands').createIndex({ project: 1, spider: 1 }, { name: 'by_project' });
    });
    this.ready.catch(() => undefined);
  }

  private get docs(): Collection<SpiderCommandDoc> {
    return this.views.db.collection<SpiderCommandDoc>('spider_commands');
  }

  private async write(at: LogPosition, entries: { project: number; spider: string; d: string | null }[]): Promise<void> {
    await this.ready;
    if (entries.length === 0) return;
    const o = at.offset;
    const ids = entries.map((e) => idOf(e.project, e.spider));
    const stored = new Map((await this.docs.find({ _id: { $in: ids } }, { projection: { _o: 1 } }).toArray()).map((d) => [d._id, d._o]));
    const ops: AnyBulkWriteOperation<SpiderCommandDoc>[] = [];
    for (const e of entries) {
      const _id = idOf(e.project, e.spider);
      if ((stored.get(_id) ?? -1) >= o) continue;
      ops.push({ replaceOne: { filter: { _id }, replacement: { project: e.project, spider: e.spider, d: e.d, _o: o }, upsert: true } });
    }
    if (ops.length) await this.docs.bulkWrite(ops, { ordered: true });
  }

  register(at: LogPosition, spiders: RegisteredSpider[]): Promise<void> {
    return this.write(at, spiders.map((s) => ({ project: s.project, spider: s.spider, d: JSON.stringify(s) })));
  }

  unregister(at: LogPosition, project: number, spiders: string[]): Promise<void> {
    return this.write(at, spiders.map((spider) => ({ project, spider, d: null })));
  }

  async list(project: number): Promise<RegisteredSpider[]> {
    await this.ready;
    const docs = await this.docs.find({ project, d: { $ne: null } }, { projection: { d: 1, spider: 1 } }).toArray();
    // Sorted here, by code unit like SQLite's BINARY collation (a server may collate otherwise).
    return docs.map((d) => JSON.parse(d.d!) as RegisteredSpider).sort((a, b) => (a.spider < b.spider ? -1 : a.spider > b.spider ? 1 : 0));
  }

  async get(project: number, spider: string): Promise<RegisteredSpider | null> {
    await this.ready;
    const doc = await this.docs.findOne({ _id: idOf(project, spider) }, { projection: { d: 1 } });
    return doc?.d ? (JSON.parse(doc.d) as RegisteredSpider) : null;
  }

  async projects(): Promise<number[]> {
    await this.ready;
    const projects = (await this.docs.distinct('project', { d: { $ne: null } })) as number[];
    return projects.sort((a, b) => a - b);
  }
}
