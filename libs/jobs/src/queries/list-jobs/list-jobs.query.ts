import { JobFilter } from '../../ports/jobs.view';

export class ListJobsQuery {
  constructor(readonly filter: JobFilter, readonly page: { offset: number; limit: number }) {}
}

export class CountJobsQuery {
  constructor(readonly filter: JobFilter) {}
}
