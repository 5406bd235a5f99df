import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { StoredCollectionRecord, withMeta } from '../../domain/collection-record';
import { isLive } from '../../domain/collection-rules';
import { COLLECTIONS_VIEW, CollectionsView } from '../../ports/collections.view';
import { CollectionScanner } from '../scan/collection-scanner';
import { GetRecordQuery, RecordVersionsQuery, ScanRecordsQuery } from './read-records.query';
import { Clock, CLOCK } from '@crawlhub/contracts';

/** JSON texts of the results, page by page, so a large scan streams in constant memory. */
export type RecordTexts = AsyncIterable<string[]>;

@QueryHandler(ScanRecordsQuery)
export class ScanRecordsHandler implements IQueryHandler<ScanRecordsQuery, RecordTexts> {
  constructor(private readonly scanner: CollectionScanner) {}

  /** Bad parameters throw here, before the caller starts answering. */
  async execute(q: ScanRecordsQuery): Promise<RecordTexts> {
    const pages = this.scanner.scan(q.scan);
    return (async function* () {
      for await (const page of pages) yield page.map((r) => withMeta(r, q.meta));
    })();
  }
}

@QueryHandler(GetRecordQuery)
export class GetRecordHandler implements IQueryHandler<GetRecordQuery, StoredCollectionRecord | null> {
  constructor(@Inject(COLLECTIONS_VIEW) private readonly view: CollectionsView, @Inject(CONFIG) private readonly config: CrawlhubConfig, @Inject(CLOCK) private readonly clock: Clock) {}

  async execute(q: GetRecordQuery): Promise<StoredCollectionRecord | null> {
    const [r] = await this.view.getMany(q.ref, [q.key]);
    return r && isLive(q.ref.type, r.ts, this.clock.now(), this.config.collections.expirySeconds * 1000) ? r : null;
  }
}

@QueryHandler(RecordVersionsQuery)
export class RecordVersionsHandler implements IQueryHandler<RecordVersionsQuery, StoredCollectionRecord[]> {
  constructor(@Inject(COLLECTIONS_VIEW) private readonly view: CollectionsView, @Inject(CONFIG) private readonly config: CrawlhubConfig, @Inject(CLOCK) private readonly clock: Clock) {}

  async execute(q: RecordVersionsQuery): Promise<StoredCollectionRecord[]> {
    const now = this.clock.now();
    const expiryMs = this.config.collections.expirySeconds * 1000;
    return (await this.view.versions(q.ref, q.key)).filter((r) => isLive(q.ref.type, r.ts, now, expiryMs));
  }
}
