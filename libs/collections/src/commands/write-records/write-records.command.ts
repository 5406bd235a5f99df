import { Actor, CollectionRef } from '@crawlhub/contracts';

/**
 * POST /collections/<p>/<type>/<name>: JSON lines of records, each with its `_key`; or,
 * with `key`, POST .../<name>/<key>: one record stored under that key.
 */
export class WriteRecordsCommand {
  constructor(
    readonly ref: CollectionRef,
    readonly body: AsyncIterable<Buffer>,
    readonly actor: Actor,
    readonly key?: string,
  ) {}
}
