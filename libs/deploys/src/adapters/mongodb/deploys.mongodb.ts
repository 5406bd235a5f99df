import { Inject, Injectable } from '@nestjs/common';
import { Collection } from 'mongodb';
import { LogPosition } from '@crawlhub/eventlog';
import { MongoViewDatabase } from '@crawlhub/views';
import { DeployDoc } from '../../domain/deploy';
import { DeploysView } from '../../ports/deploys.view';

interface DeployRow {
  /** `<project>/<deploy id>`. */
  _id: string;
  project: number;
  deployId: number;
  request: string;
  version: string;
  ok: boolean;
  d: string;
  /** Offset of the event that last wrote it: a write that is not newer is skipped. */
  _o: number;
}

/** Deploys on MongoDB without transactions: each document carries the offset of its last event. */
@Injectable()
export class DeploysMongo implements DeploysView {
  private readonly ready: Promise<void>;

  constructor(@Inject(MongoViewDatabase) private readonly views: MongoViewDatabase) {
    this.ready = views.defineIndexes(async (db) => {
      await db.collection<DeployRow>('deploys').createIndex({ project: 1, request: 1 }, { name: 'by_request' });
      await db.collection<DeployRow>('deploys').createIndex({ project: 1, deployId: 1 }, { name: 'by_project' });
    });
    this.ready.catch(() => undefined);
  }

  private get rows(): Collection<DeployRow> {
    return this.views.db.collection<DeployRow>('deploys');
  }

  async put(at: LogPosition, d: DeployDoc): Promise<void> {
    await this.ready;
    const _id = `${d.project}/${d.deployId}`;
    const row: Omit<DeployRow, '_id'> = { project: d.project, deployId: d.deployId, request: d.request, version: d.version, ok: d.state === 'ok' && !d.deleted, d: JSON.stringify(d), _o: at.offset };
    const stored = await this.rows.findOne({ _id }, { projection: { _o: 1 } });
    if (stored && stored._o >= at.offset) return;
    await this.rows.replaceOne({ _id }, row, { upsert: true });
  }

  async deleteVersion(at: LogPosition, project: number, version: string): Promise<void> {
    await this.ready;
    for (const r of await this.rows.find({ project, version }).toArray()) await this.put(at, { ...(JSON.parse(r.d) as DeployDoc), deleted: true });
  }

  async byRequest(project: number, request: string): Promise<DeployDoc | null> {
    await this.ready;
    const r = await this.rows.findOne({ project, request });
    return r ? (JSON.parse(r.d) as DeployDoc) : null;
  }

  async get(project: number, deployId: number): Promise<DeployDoc | null> {
    await this.ready;
    const r = await this.rows.findOne({ _id: `${project}/${deployId}` });
    return r ? (JSON.parse(r.d) as DeployDoc) : null;
  }

  async lastDeployId(project: number): Promise<number> {
    await this.ready;
    const [r] = await this.rows.find({ project }, { projection: { deployId: 1 } }).sort({ deployId: -1 }).limit(1).toArray();
    return r?.deployId ?? 0;
  }

  async list(project: number): Promise<DeployDoc[]> {
    await this.ready;
    const rows = await this.rows.find({ project }).toArray();
    return rows.map((r) => JSON.parse(r.d) as DeployDoc).sort((a, b) => a.deployId - b.deployId);
  }

  async projects(): Promise<number[]> {
    await this.ready;
    return ((await this.rows.distinct('project', { ok: true })) as number[]).sort((a, b) => a - b);
  }
}
