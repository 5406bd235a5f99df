import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  createEvent, JOB_DATA_CHUNK_STAGED, JOB_DATA_TOPIC, JOB_DATA_UPLOAD_ABORTED, JOB_DATA_UPLOAD_COMMITTED, JOB_DATA_WRITTEN,
  JobDataChunkStaged, JobDataUploadAborted, JobDataUploadCommitted, JobDataWritten,
} from '@crawlhub/contracts';
import { CONFIG, CrawlhubConfig } from '@crawlhub/config';
import { EventWriter } from '@crawlhub/views';
import { formatJobKey } from '../../domain/job-key';
import { countKeys } from '../../domain/stats-math';
import { readJsonLines, RecordChunk } from '../../ingestion/json-lines-reader';
import { WriteJobRecordsCommand } from './write-job-records.command';

/**
 * A body that fits in one chunk becomes one `job-data.written` event. A longer one is
 * staged chunk by chunk and committed at the end, so a body that fails half-way
 * (bad line, record too large, client gone) leaves nothing visible behind.
 */
@CommandHandler(WriteJobRecordsCommand)
export class WriteJobRecordsHandler implements ICommandHandler<WriteJobRecordsCommand, { records: number }> {
  constructor(
    private readonly writer: EventWriter,
    @Inject(CONFIG) private readonly config: CrawlhubConfig,
  ) {}

  async execute(cmd: WriteJobRecordsCommand): Promise<{ records: number }> {
    const job = formatJobKey(cmd.job);
    const base = { kind: cmd.kind, job };
    const correlationId = randomUUID();
    const event = <T>(type: string, data: T, lines?: string[]) => createEvent({ type, key: job, data, lines, actor: cmd.actor, correlationId });
    const chunkData = (c: RecordChunk) => ({
      sizes: c.records.map((r) => r.size),
      counts: countKeys(c.records.map((r) => r.countKeys)),
    });

    let upload: string | null = null;
    let seq = 0;
    let held: RecordChunk | null = null;
    let records = 0;
    const stage = async (c: RecordChunk) => {
      upload ??= randomUUID();
      const data: JobDataChunkStaged = { ...base, upload, seq: seq++, ...chunkData(c) };
      await this.writer.append(JOB_DATA_TOPIC, [event(JOB_DATA_CHUNK_STAGED, data, c.records.map((r) => r.json))]);
    };

    try {
      for await (const chunk of readJsonLines(cmd.body, cmd.kind, { maxRecordBytes: this.config.maxRecordBytes, chunkBytes: this.config.eventChunkBytes })) {
        if (held) await stage(held);
        held = chunk;
        records += chunk.records.length;
      }
    } catch (err) {
      if (upload) {
        const aborted: JobDataUploadAborted = { upload, job };
        await this.writer.append(JOB_DATA_TOPIC, [event(JOB_DATA_UPLOAD_ABORTED, aborted)]).catch(() => undefined);
      }
      throw err;
    }
    if (!held) return { records: 0 };
    let positions;
    if (upload === null) {
      const data: JobDataWritten = { ...base, start: cmd.start, ...chunkData(held) };
      positions = await this.writer.append(JOB_DATA_TOPIC, [event(JOB_DATA_WRITTEN, data, held.records.map((r) => r.json))]);
    } else {
      await stage(held);
      const data: JobDataUploadCommitted = { ...base, upload, start: cmd.start, chunks: seq };
      positions = await this.writer.append(JOB_DATA_TOPIC, [event(JOB_DATA_UPLOAD_COMMITTED, data)]);
    }
    await this.writer.waitForViews(positions);
    return { records };
  }
}
