import { ScanRequest } from '../scan/collection-scanner';

/** GET .../<name>/count: the matching records among at most COLLECTION_SCAN_BATCH examined. */
export class CountRecordsQuery {
  constructor(readonly scan: Omit<ScanRequest, 'budget' | 'count'>) {}
}

export interface RecordCount {
  count: number;
  scanned: number;
  nextstart?: string;
}
