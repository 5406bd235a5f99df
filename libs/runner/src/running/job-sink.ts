import { Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CrawlhubConfig } from '@crawlhub/config';
import { Actor, Clock, JobKey } from '@crawlhub/contracts';
import { JobRecordsView, RECORD_KINDS, RecordKind, UpdateJobMetadataCommand, WriteJobRecordsCommand } from '@crawlhub/storage';
import { ProjectionLagError } from '@crawlhub/views';
import { RecordSink } from './record-sink';

/** Records a job's sink writes per batch (the original uploads 1000 at a time); the runner pauses a job's output at 4 batches waiting. */
export const SINK_BATCH_RECORDS = 1000;

export interface JobSinkDeps {
  commands: CommandBus;
  records: JobRecordsView;
  config: CrawlhubConfig;
  logger: Logger;
  clock: Clock;
}

/**
 * A sink writing to a job's data where it ends now (0 for a new job), each kind on its
 * own, through the storage commands (in-process, attributed to the job). The runner
 * streams a job's output through one; the lost-runner watch writes its last log line with one.
 */
export async function openJobSink({ commands, records, config, logger, clock }: JobSinkDeps, job: JobKey): Promise<RecordSink> {
  const starts = {} as Record<RecordKind, number>;
  for (const kind of RECORD_KINDS) starts[kind] = (await records.stats(kind, job))?.inputValues ?? 0;
  const key = `${job.project}/${job.spider}/${job.job}`;
  const actor: Actor = { kind: 'job', id: key };
  return new RecordSink(
    {
      writeRecords: (kind, start, lines) => durable(commands.execute(new WriteJobRecordsCommand(kind, job, start, once(Buffer.from(`${lines.join('\n')}\n`)), actor))),
      writeStats: (stats) => durable(commands.execute(new UpdateJobMetadataCommand(job, { merge: { scrapystats: stats } }, actor))),
      lost: (what, e) => logger.error(`job ${key}: gave up writing ${what}: ${(e as Error).message ?? e}`),
    },
    starts,
    { batchRecords: SINK_BATCH_RECORDS, batchBytes: config.eventChunkBytes, maxRecordBytes: config.maxRecordBytes, retries: 8, retryDelayMs: 250, clock },
  );
}

/** A write whose events are in the log is done, even when the views are slow to show it. */
export async function durable(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (e) {
    if (!(e instanceof ProjectionLagError)) throw e;
  }
}

async function* once(buf: Buffer): AsyncIterable<Buffer> {
  yield buf;
}
