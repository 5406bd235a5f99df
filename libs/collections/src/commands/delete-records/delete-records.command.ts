import { Actor, CollectionRef } from '@crawlhub/contracts';
import { ScanRequest } from '../../queries/scan/collection-scanner';

/**
 * DELETE .../<name>/<key> (`keys`), or POST .../<name>/deleted (`body`: JSON lines, each
 * a key as a JSON string or an array of them): those records removed, missing ones ignored.
 */
export class DeleteRecordsCommand {
  constructor(
    readonly ref: CollectionRef,
    readonly keys: { list: string[] } | { body: AsyncIterable<Buffer> },
    readonly actor: Actor,
  ) {}
}

/** DELETE /collections/<p>/<type>/<name>?<filters>: the matching records, up to COLLECTION_SCAN_BATCH examined per call. */
export class DeleteMatchingRecordsCommand {
  constructor(
    readonly scan: Omit<ScanRequest, 'budget' | 'count'>,
    readonly actor: Actor,
  ) {}
}

export interface DeletedRecords {
  deleted: number;
  /** Set when the scan budget ran out before the end: call again with `start=` this. */
  nextstart?: string;
}
