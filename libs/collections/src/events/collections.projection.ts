import { Inject, Injectable } from '@nestjs/common';
import {
  COLLECTION_CHUNK_STAGED, COLLECTION_DELETED, COLLECTION_RECORDS_DELETED, COLLECTION_RECORDS_WRITTEN, COLLECTION_RENAMED, COLLECTION_UPLOAD_ABORTED,
  COLLECTION_UPLOAD_COMMITTED, CollectionChunkStaged, CollectionDeleted, CollectionRecordsDeleted, CollectionRecordsWritten, CollectionRenamed,
  COLLECTIONS_TOPIC, CollectionUploadAborted, CollectionUploadCommitted,
} from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { unpackCollectionLine } from '../domain/collection-record';
import { expiredBefore } from '../domain/collection-rules';
import { COLLECTIONS_VIEW, CollectionsView } from '../ports/collections.view';

/**
 * Decisions made here, when the event is applied: `_ts` of written records (the event's
 * time), how many versions a versioned collection keeps (COLLECTION_VERSIONS), and which
 * expired records of cached collections are purged (those older than the write event's
 * time minus COLLECTION_EXPIRY_SECONDS; reads hide expired records by the clock anyway).
 */
@AsProjection()
@Injectable()
export class CollectionsProjection implements Projection {
  readonly topics = [COLLECTIONS_TOPIC];

  constructor(
    @Inject(COLLECTIONS_VIEW) private readonly view: CollectionsView,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
  ) {}

  async apply(e: LoggedEvent): Promise<void> {
    const { event } = e;
    const keep = this.config.collections.versions;
    switch (event.type) {
      case COLLECTION_RECORDS_WRITTEN: {
        const d = event.data as CollectionRecordsWritten;
        const records = (event.lines ?? []).map(unpackCollectionLine);
        await this.view.write(e, { project: d.project, type: d.type, name: d.name, records, ts: event.occurredAt, keepVersions: keep });
        return this.purge(e, d.project);
      }
      case COLLECTION_CHUNK_STAGED: {
        const d = event.data as CollectionChunkStaged;
        return this.view.stageChunk(e, { project: d.project, upload: d.upload, seq: d.seq, lines: event.lines ?? [] });
      }
      case COLLECTION_UPLOAD_COMMITTED: {
        const d = event.data as CollectionUploadCommitted;
        await this.view.commitUpload(e, { project: d.project, type: d.type, name: d.name, upload: d.upload, ts: event.occurredAt, keepVersions: keep });
        return this.purge(e, d.project);
      }
      case COLLECTION_UPLOAD_ABORTED: {
        const d = event.data as CollectionUploadAborted;
        return this.view.abortUpload(e, { project: d.project, upload: d.upload });
      }
      case COLLECTION_RECORDS_DELETED: {
        const d = event.data as CollectionRecordsDeleted;
        const keys = (event.lines ?? []).map((l) => JSON.parse(l) as string);
        return this.view.deleteRecords(e, { project: d.project, type: d.type, name: d.name }, keys);
      }
      case COLLECTION_DELETED: {
        const d = event.data as CollectionDeleted;
        return this.view.deleteCollection(e, d.project, d.name);
      }
      case COLLECTION_RENAMED: {
        const d = event.data as CollectionRenamed;
        return this.view.renameCollection(e, d.project, d.name, d.newName);
      }
    }
  }

  private purge(e: LoggedEvent, project: number): Promise<void> {
    return this.view.purgeExpired(e, project, expiredBefore(e.event.occurredAt, this.config.collections.expirySeconds * 1000));
  }
}
