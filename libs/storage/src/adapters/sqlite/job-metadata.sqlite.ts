import { JobKey } from '@crawlhub/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { LogPosition } from '@crawlhub/eventlog';
import { SqliteViewDatabase } from '@crawlhub/views';
import { ClientMetadata, JobMetadataView, mergeClientMetadata } from '../../ports/job-metadata.view';

@Injectable()
export class JobMetadataSqlite implements JobMetadataView {
  constructor(@Inject(SqliteViewDatabase) private readonly views: SqliteViewDatabase) {
    views.defineSchema(`CREATE TABLE IF NOT EXISTS job_metadata (
      project INTEGER NOT NULL, spider INTEGER NOT NULL, job INTEGER NOT NULL, doc TEXT NOT NULL,
      PRIMARY KEY (project, spider, job)) WITHOUT ROWID`);
  }

  private load(job: JobKey, db = this.views.writer): ClientMetadata | null {
    const row = db.prepare('SELECT doc FROM job_metadata WHERE project = ? AND spider = ? AND job = ?').get(job.project, job.spider, job.job) as
      | { doc: string }
      | undefined;
    return row ? JSON.parse(row.doc) : null;
  }

  private save(job: JobKey, doc: ClientMetadata): void {
    this.views.writer
      .prepare('INSERT OR REPLACE INTO job_metadata (project, spider, job, doc) VALUES (?, ?, ?, ?)')
      .run(job.project, job.spider, job.job, JSON.stringify(doc));
  }

  async merge(_at: LogPosition, job: JobKey, fields: Record<string, unknown>, time: number): Promise<void> {
    this.save(job, mergeClientMetadata(this.load(job), { merge: fields }, time));
  }

  async deleteField(_at: LogPosition, job: JobKey, field: string, time: number): Promise<void> {
    this.save(job, mergeClientMetadata(this.load(job), { delete: field }, time));
  }

  async get(job: JobKey): Promise<ClientMetadata | null> {
    return this.load(job, this.views.reader);
  }
}
