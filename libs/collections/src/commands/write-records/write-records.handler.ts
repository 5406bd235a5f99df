import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { COLLECTION_CHUNK_STAGED, COLLECTION_RECORDS_WRITTEN, COLLECTION_UPLOAD_ABORTED, COLLECTION_UPLOAD_COMMITTED, CollectionChunkStaged, CollectionRecordsWritten, COLLECTIONS_TOPIC, CollectionUploadAborted, CollectionUploadCommitted, currentCorrelationId, Ids, IDS } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { CountedLines, LineChunk, readLines } from '@crawlhub/http';
import { appendStaged, EventWriter } from '@crawlhub/views';
import { CollectionInputError, CollectionRecordInput, packCollectionLine, parseCollectionLine, parseJsonLine, recordOf } from '../../domain/collection-record';
import { WriteRecordsCommand } from './write-records.command';

/**
 * Checks every line as it streams in (nothing of a body with one bad line is stored) and
 * appends the records like job data: one event when the body fits in EVENT_CHUNK_BYTES,
 * else staged chunks made visible by one commit event (`appendStaged`). Answers once the
 * collections view has them (read-your-writes).
 */
@CommandHandler(WriteRecordsCommand)
export class WriteRecordsHandler implements ICommandHandler<WriteRecordsCommand, { records: number }> {
  constructor(
    private readonly writer: EventWriter,
    @Inject(IDS) private readonly ids: Ids,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
  ) {}

  async execute(cmd: WriteRecordsCommand): Promise<{ records: number }> {
    const { ref } = cmd;
    const max = this.config.maxRecordBytes;
    // The events of one write share one id: the request's (X-Request-Id), else a new one.
    const correlationId = currentCorrelationId() ?? this.ids.uuid();
    const event = <T>(type: string, data: T, lines?: string[]) => this.writer.createEvent({ type, key: String(ref.project), data, lines, actor: cmd.actor, correlationId });
    const lines = (c: LineChunk<CollectionRecordInput>) => c.records.map(packCollectionLine);

    const parse = cmd.key === undefined ? parseCollectionLine : oneRecordAt(cmd.key);
    const body = new CountedLines(readLines(cmd.body, parse, {
      maxRecordBytes: max,
      chunkBytes: this.config.eventChunkBytes,
      tooLarge: () => `Error parsing data, Serialized value too large - max ${max} bytes`,
    }));
    const base = { project: ref.project, type: ref.type, name: ref.name };
    const positions = await appendStaged(this.writer, COLLECTIONS_TOPIC, body, {
      single: (c) => event<CollectionRecordsWritten>(COLLECTION_RECORDS_WRITTEN, base, lines(c)),
      staged: (c, upload, seq) => event<CollectionChunkStaged>(COLLECTION_CHUNK_STAGED, { ...base, upload, seq }, lines(c)),
      commit: (upload, chunks) => event<CollectionUploadCommitted>(COLLECTION_UPLOAD_COMMITTED, { ...base, upload, chunks }),
      abort: (upload) => event<CollectionUploadAborted>(COLLECTION_UPLOAD_ABORTED, { project: ref.project, upload }),
    });
    if (cmd.key !== undefined && body.records === 0) throw new CollectionInputError(400, 'Error parsing data, expected one JSON object');
    if (positions.length) await this.writer.waitForViews(positions);
    return { records: body.records };
  }
}

/** The body of POST .../<name>/<key>: one JSON object, stored under the key of the path (a `_key` in it is ignored). */
function oneRecordAt(key: string): (text: string, lineNo: number) => CollectionRecordInput {
  let seen = 0;
  return (text, lineNo) => {
    if (++seen > 1) throw new CollectionInputError(400, `Error parsing data, line ${lineNo}: expected one JSON object`);
    const value = parseJsonLine(text, lineNo);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new CollectionInputError(400, `Error parsing data, line ${lineNo}: a collection record must be a JSON object`);
    }
    return recordOf({ ...(value as Record<string, unknown>), _key: key }, lineNo);
  };
}
