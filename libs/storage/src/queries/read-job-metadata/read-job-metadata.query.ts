import { JobKey } from '@crawlhub/contracts';

export class ReadJobMetadataQuery {
  constructor(readonly job: JobKey) {}
}
