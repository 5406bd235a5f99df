import { Inject, Injectable } from '@nestjs/common';
import { JOB_DATA_CHUNK_STAGED, JOB_DATA_TOPIC, JOB_DATA_UPLOAD_ABORTED, JOB_DATA_UPLOAD_COMMITTED, JOB_DATA_WRITTEN, JobDataChunkStaged, JobDataUploadAborted, JobDataUploadCommitted, JobDataWritten, parseJobKey } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { JOB_RECORDS_VIEW, JobRecordsView } from '../ports/job-records.view';


@AsProjection()
@Injectable()
export class JobRecordsProjection implements Projection {
  readonly topics = [JOB_DATA_TOPIC];

  constructor(@Inject(JOB_RECORDS_VIEW) private readonly view: JobRecordsView) {}

  async apply(e: LoggedEvent): Promise<void> {
    const { event } = e;
    switch (event.type) {
      case JOB_DATA_WRITTEN: {
        const d = event.data as JobDataWritten;
        return this.view.write(e, { kind: d.kind, job: parseJobKey(d.job), start: d.start, lines: event.lines ?? [], sizes: d.sizes, counts: d.counts, ts: event.occurredAt });
      }
      case JOB_DATA_CHUNK_STAGED: {
        const d = event.data as JobDataChunkStaged;
        return this.view.stageChunk(e, { upload: d.upload, seq: d.seq, kind: d.kind, job: parseJobKey(d.job), lines: event.lines ?? [], sizes: d.sizes, counts: d.counts });
      }
      case JOB_DATA_UPLOAD_COMMITTED: {
        const d = event.data as JobDataUploadCommitted;
        return this.view.commitUpload(e, { upload: d.upload, kind: d.kind, job: parseJobKey(d.job), start: d.start, ts: event.occurredAt });
      }
      case JOB_DATA_UPLOAD_ABORTED:
        return this.view.abortUpload(e, (event.data as JobDataUploadAborted).upload);
    }
  }
}
