import { JobKey } from '../../domain/job-key';

export class ReadJobMetadataQuery {
  constructor(readonly job: JobKey) {}
}
