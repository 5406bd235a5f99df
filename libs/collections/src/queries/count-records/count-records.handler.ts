import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { CollectionScanner, ScanProgress } from '../scan/collection-scanner';
import { CountRecordsQuery, RecordCount } from './count-records.query';

@QueryHandler(CountRecordsQuery)
export class CountRecordsHandler implements IQueryHandler<CountRecordsQuery, RecordCount> {
  constructor(private readonly scanner: CollectionScanner, @Inject(CONFIG) private readonly config: CrawlhubConfig) {}

  async execute(q: CountRecordsQuery): Promise<RecordCount> {
    const progress: ScanProgress = { scanned: 0, matched: 0 };
    for await (const _page of this.scanner.scan({ ...q.scan, budget: this.config.collections.scanBatch }, progress)) void _page;
    const out: RecordCount = { count: progress.matched, scanned: progress.scanned };
    if (progress.nextstart !== undefined) out.nextstart = progress.nextstart;
    return out;
  }
}
