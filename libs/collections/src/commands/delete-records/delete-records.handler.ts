import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Actor, COLLECTION_RECORDS_DELETED, CollectionRecordsDeleted, CollectionRef, COLLECTIONS_TOPIC, EventEnvelope } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { readLines } from '@crawlhub/http';
import { EventWriter } from '@crawlhub/views';
import { CollectionInputError, isValidKey, parseJsonLine } from '../../domain/collection-record';
import { CollectionScanner, ScanProgress } from '../../queries/scan/collection-scanner';
import { DeletedRecords, DeleteMatchingRecordsCommand, DeleteRecordsCommand } from './delete-records.command';

/**
 * Appends `collection.records-deleted` events naming the keys (as JSON strings in `lines`),
 * each at most about EVENT_CHUNK_BYTES, and waits for the view. Deleting is idempotent, so a
 * long list cut into several events is safe to retry.
 */
async function appendDeletes(writer: EventWriter, ref: CollectionRef, keys: string[], actor: Actor, chunkBytes: number): Promise<void> {
  const data: CollectionRecordsDeleted = { project: ref.project, type: ref.type, name: ref.name };
  const events: EventEnvelope<CollectionRecordsDeleted>[] = [];
  let lines: string[] = [];
  let bytes = 0;
  const flush = () => {
    if (lines.length) events.push(writer.createEvent({ type: COLLECTION_RECORDS_DELETED, key: String(ref.project), data, lines, actor }));
    lines = [];
    bytes = 0;
  };
  for (const key of keys) {
    const line = JSON.stringify(key);
    if (bytes + line.length > chunkBytes) flush();
    lines.push(line);
    bytes += line.length + 1;
  }
  flush();
  if (events.length === 0) return;
  const positions = [];
  for (const e of events) positions.push(...(await writer.append(COLLECTIONS_TOPIC, [e])));
  await writer.waitForViews(positions);
}

@CommandHandler(DeleteRecordsCommand)
export class DeleteRecordsHandler implements ICommandHandler<DeleteRecordsCommand, void> {
  constructor(
    private readonly writer: EventWriter,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
  ) {}

  /** The whole key list is read and checked before anything is appended: one bad line deletes nothing. */
  async execute(cmd: DeleteRecordsCommand): Promise<void> {
    let keys: string[];
    if ('list' in cmd.keys) keys = cmd.keys.list;
    else {
      keys = [];
      const chunks = readLines(cmd.keys.body, keysOfLine, { maxRecordBytes: this.config.maxRecordBytes, chunkBytes: this.config.eventChunkBytes });
      for await (const c of chunks) for (const ks of c.records) keys.push(...ks);
    }
    await appendDeletes(this.writer, cmd.ref, keys, cmd.actor, this.config.eventChunkBytes);
  }
}

/** A line of a `deleted` body: a key as a JSON string, or a JSON array of them. */
function keysOfLine(text: string, lineNo: number): string[] {
  const value = parseJsonLine(text, lineNo);
  const keys = Array.isArray(value) ? value : [value];
  if (!keys.every(isValidKey)) throw new CollectionInputError(400, `Error parsing data, line ${lineNo}: expected a key (a non-empty JSON string) or an array of keys`);
  return keys as string[];
}

@CommandHandler(DeleteMatchingRecordsCommand)
export class DeleteMatchingRecordsHandler implements ICommandHandler<DeleteMatchingRecordsCommand, DeletedRecords> {
  constructor(
    private readonly writer: EventWriter,
    private readonly scanner: CollectionScanner,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
  ) {}

  async execute(cmd: DeleteMatchingRecordsCommand): Promise<DeletedRecords> {
    const progress: ScanProgress = { scanned: 0, matched: 0 };
    const keys: string[] = [];
    for await (const page of this.scanner.scan({ ...cmd.scan, budget: this.config.collections.scanBatch }, progress)) for (const r of page) keys.push(r.key);
    await appendDeletes(this.writer, cmd.scan.ref, keys, cmd.actor, this.config.eventChunkBytes);
    return progress.nextstart === undefined ? { deleted: keys.length } : { deleted: keys.length, nextstart: progress.nextstart };
  }
}
