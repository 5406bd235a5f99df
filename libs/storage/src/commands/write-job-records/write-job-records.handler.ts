import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { currentCorrelationId, formatJobKey, Ids, IDS, JOB_DATA_CHUNK_STAGED, JOB_DATA_TOPIC, JOB_DATA_UPLOAD_ABORTED, JOB_DATA_UPLOAD_COMMITTED, JOB_DATA_WRITTEN, JobDataChunkStaged, JobDataUploadAborted, JobDataUploadCommitted, JobDataWritten } from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { appendStaged, EventWriter } from '@crawlhub/views';
import { countKeys } from '../../domain/stats-math';
import { CountedLines } from '@crawlhub/http';
import { readJsonLines, RecordChunk } from '../../ingestion/json-lines-reader';
import { WriteJobRecordsCommand } from './write-job-records.command';

/**
 * A body that fits in one chunk becomes one `job-data.written` event. A longer one is
 * staged chunk by chunk and committed at the end (`appendStaged`), so a body that fails
 * half-way (bad line, record too large, client gone) leaves nothing visible behind.
 */
@CommandHandler(WriteJobRecordsCommand)
export class WriteJobRecordsHandler implements ICommandHandler<WriteJobRecordsCommand, { records: number }> {
  constructor(
    private readonly writer: EventWriter,
    @Inject(IDS) private readonly ids: Ids,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
  ) {}

  async execute(cmd: WriteJobRecordsCommand): Promise<{ records: number }> {
    const job = formatJobKey(cmd.job);
    const base = { kind: cmd.kind, job };
    // The events of one write share one id: the request's (X-Request-Id), else a new one.
    const correlationId = currentCorrelationId() ?? this.ids.uuid();
    const event = <T>(type: string, data: T, c?: RecordChunk) =>
      this.writer.createEvent({ type, key: job, data, lines: c && c.records.map((r) => r.json), linesUtf8: c && postedBytes(c), actor: cmd.actor, correlationId });
    const chunkData = (c: RecordChunk) => ({
      sizes: c.records.map((r) => r.size),
      counts: countKeys(c.records.map((r) => r.countKeys)),
    });

    const body = new CountedLines(readJsonLines(cmd.body, cmd.kind, { maxRecordBytes: this.config.maxRecordBytes, chunkBytes: this.config.eventChunkBytes, start: cmd.start }));
    const positions = await appendStaged(this.writer, JOB_DATA_TOPIC, body, {
      single: (c) => event<JobDataWritten>(JOB_DATA_WRITTEN, { ...base, start: cmd.start, ...chunkData(c) }, c),
      staged: (c, upload, seq) => event<JobDataChunkStaged>(JOB_DATA_CHUNK_STAGED, { ...base, upload, seq, ...chunkData(c) }, c),
      commit: (upload, chunks) => event<JobDataUploadCommitted>(JOB_DATA_UPLOAD_COMMITTED, { ...base, upload, start: cmd.start, chunks }),
      abort: (upload) => event<JobDataUploadAborted>(JOB_DATA_UPLOAD_ABORTED, { upload, job }),
    });
    if (positions.length === 0) return { records: 0 };
    await this.writer.waitForViews(positions);
    return { records: body.records };
  }
}

const NEWLINE = Buffer.from('\n');

/** A chunk's lines in UTF-8 for its event: each record's posted bytes where it was kept as written (no second encoding of the body), `\n` between them. */
function postedBytes(c: RecordChunk): Buffer[] {
  const pieces: Buffer[] = [];
  for (const r of c.records) {
    if (pieces.length > 0) pieces.push(NEWLINE);
    pieces.push(r.bytes ?? Buffer.from(r.json, 'utf8'));
  }
  return pieces;
}
