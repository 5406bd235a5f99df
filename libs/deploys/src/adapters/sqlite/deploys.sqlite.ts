import { Inject, Injectable } from '@nestjs/common';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import { DeployDoc } from '../../domain/deploy';
import { DeploysView } from '../../ports/deploys.view';

/** One row per deploy, the document as JSON; writes run in the projector's transaction. */
@Injectable()
export class DeploysSqlite implements DeploysView {
  constructor(@Inject(SqliteViewDatabase) private readonly views: SqliteViewDatabase) {
    views.defineSchema(`
      CREATE TABLE IF NOT EXISTS deploys (
        project INTEGER NOT NULL, deploy_id INTEGER NOT NULL, request TEXT NOT NULL, version TEXT NOT NULL,
        ok INTEGER NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (project, deploy_id)) WITHOUT ROWID;
      CREATE UNIQUE INDEX IF NOT EXISTS deploys_by_request ON deploys (project, request);
    `);
  }

  async put(_at: LogPosition, d: DeployDoc): Promise<void> {
    this.views.writer
      .prepare('INSERT OR REPLACE INTO deploys (project, deploy_id, request, version, ok, doc) VALUES (?, ?, ?, ?, ?, ?)')
      .run(d.project, d.deployId, d.request, d.version, d.state === 'ok' && !d.deleted ? 1 : 0, JSON.stringify(d));
  }

  async deleteVersion(at: LogPosition, project: number, version: string): Promise<void> {
    const rows = this.views.writer.prepare('SELECT doc FROM deploys WHERE project = ? AND version = ?').all(project, version) as { doc: string }[];
    for (const r of rows) await this.put(at, { ...(JSON.parse(r.doc) as DeployDoc), deleted: true });
  }

  private one(sql: string, ...args: unknown[]): DeployDoc | null {
    const row = this.views.reader.prepare(sql).get(...args) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as DeployDoc) : null;
  }

  async byRequest(project: number, request: string): Promise<DeployDoc | null> {
    // The writer's connection: the projection asks while applying, inside its transaction, so a
    // deploy requested earlier in the same batch (always so on a replay) must be seen.
    const row = this.views.writer.prepare('SELECT doc FROM deploys WHERE project = ? AND request = ?').get(project, request) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as DeployDoc) : null;
  }

  async get(project: number, deployId: number): Promise<DeployDoc | null> {
    return this.one('SELECT doc FROM deploys WHERE project = ? AND deploy_id = ?', project, deployId);
  }

  async lastDeployId(project: number): Promise<number> {
    // The writer's connection: the projection asks while applying, inside its transaction.
    const row = this.views.writer.prepare('SELECT MAX(deploy_id) AS n FROM deploys WHERE project = ?').get(project) as { n: number | null };
    return row.n ?? 0;
  }

  async list(project: number): Promise<DeployDoc[]> {
    const rows = this.views.reader.prepare('SELECT doc FROM deploys WHERE project = ? ORDER BY deploy_id').all(project) as { doc: string }[];
    return rows.map((r) => JSON.parse(r.doc) as DeployDoc);
  }

  async projects(): Promise<number[]> {
    const rows = this.views.reader.prepare('SELECT DISTINCT project FROM deploys WHERE ok = 1 ORDER BY project').all() as { project: number }[];
    return rows.map((r) => r.project);
  }
}
