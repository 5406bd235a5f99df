import { JobKey } from '@crawlhub/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { Collection } from 'mongodb';
import { LogPosition } from '@crawlhub/eventlog';
import { MongoViewDatabase } from '@crawlhub/views';
import { ClientMetadata, JobMetadataView, mergeClientMetadata } from '../../ports/job-metadata.view';

interface MetadataDoc {
  _id: string;
  /** The ClientMetadata as JSON text: any key works (dots, `$`) and field order is kept. */
  d: string;
  /** Offset of the event that last changed it: older or equal events are skipped on re-apply. */
  _o: number;
}

const idOf = (job: JobKey) => `${job.project}/${job.spider}/${job.job}`;

@Injectable()
export class JobMetadataMongo implements JobMetadataView {
  private readonly ready: Promise<void>;

  constructor(@Inject(MongoViewDatabase) private readonly views: MongoViewDatabase) {
    // Keyed by `_id` (the job key): no other index.
    this.ready = views.defineIndexes(async () => undefined);
    this.ready.catch(() => undefined);
  }

  private get docs(): Collection<MetadataDoc> {
    return this.views.db.collection<MetadataDoc>('job_metadata');
  }

  async merge(at: LogPosition, job: JobKey, fields: Record<string, unknown>, time: number): Promise<void> {
    await this.change(at, job, { merge: fields }, time);
  }

  async deleteField(at: LogPosition, job: JobKey, field: string, time: number): Promise<void> {
    await this.change(at, job, { delete: field }, time);
  }

  private async change(at: LogPosition, job: JobKey, change: { merge: Record<string, unknown> } | { delete: string }, time: number): Promise<void> {
    await this.ready;
    const doc = await this.docs.findOne({ _id: idOf(job) });
    if (doc && doc._o >= at.offset) return;
    await this.save(job, mergeClientMetadata(doc ? JSON.parse(doc.d) : null, change, time), at.offset);
  }

  async get(job: JobKey): Promise<ClientMetadata | null> {
    await this.ready;
    const doc = await this.docs.findOne({ _id: idOf(job) });
    return doc ? JSON.parse(doc.d) : null;
  }

  private async save(job: JobKey, value: ClientMetadata, o: number): Promise<void> {
    const doc: MetadataDoc = { _id: idOf(job), d: JSON.stringify(value), _o: o };
    await this.docs.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }
}
