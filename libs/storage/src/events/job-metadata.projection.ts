import { Inject, Injectable } from '@nestjs/common';
import { JOB_METADATA_FIELD_DELETED, JOB_METADATA_MERGED, JOB_METADATA_TOPIC, JobMetadataFieldDeleted, JobMetadataMerged, parseJobKey } from '@crawlhub/contracts';
import { LoggedEvent } from '@crawlhub/eventlog';
import { AsProjection, Projection } from '@crawlhub/views';
import { JOB_METADATA_VIEW, JobMetadataView } from '../ports/job-metadata.view';


@AsProjection()
@Injectable()
export class JobMetadataProjection implements Projection {
  readonly topics = [JOB_METADATA_TOPIC];

  constructor(@Inject(JOB_METADATA_VIEW) private readonly view: JobMetadataView) {}

  async apply(e: LoggedEvent): Promise<void> {
    if (e.event.type === JOB_METADATA_MERGED) {
      const d = e.event.data as JobMetadataMerged;
      return this.view.merge(e, parseJobKey(d.job), d.fields, e.event.occurredAt);
    }
    if (e.event.type === JOB_METADATA_FIELD_DELETED) {
      const d = e.event.data as JobMetadataFieldDeleted;
      return this.view.deleteField(e, parseJobKey(d.job), d.field, e.event.occurredAt);
    }
  }
}
