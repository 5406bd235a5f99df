import { CollectionRef } from '@crawlhub/contracts';
import { ScanRequest } from '../scan/collection-scanner';

/** GET /collections/<p>/<type>/<name>: the matching records as JSON texts, meta fields appended. */
export class ScanRecordsQuery {
  constructor(readonly scan: ScanRequest, readonly meta: { key: boolean; ts: boolean; nodata: boolean }) {}
}

/** One live record, or null (GET .../<key> and .../<key>/value). */
export class GetRecordQuery {
  constructor(readonly ref: CollectionRef, readonly key: string) {}
}

/** The live stored versions of a record, newest first (GET .../<key>/versions, vs and vcs). */
export class RecordVersionsQuery {
  constructor(readonly ref: CollectionRef, readonly key: string) {}
}
