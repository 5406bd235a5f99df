import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { JobState } from '@crawlhub/contracts';
import { JOBS_VIEW, JobsView } from '../../ports/jobs.view';
import { JobStateCountsQuery } from './job-state-counts.query';

export type JobStateCounts = { project: number; counts: Record<JobState, number> }[];

@QueryHandler(JobStateCountsQuery)
export class JobStateCountsHandler implements IQueryHandler<JobStateCountsQuery, JobStateCounts> {
  constructor(@Inject(JOBS_VIEW) private readonly view: JobsView) {}

  execute({ project }: JobStateCountsQuery): Promise<JobStateCounts> {
    return this.view.stateCounts(project);
  }
}
